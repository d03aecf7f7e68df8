/**
 * `spoolforge/s3`: an `ArtifactStore` on S3-compatible object storage (AWS S3, R2, MinIO, GCS).
 * Only this entry loads the AWS SDK: `@aws-sdk/client-s3`, `@aws-sdk/lib-storage` and
 * `@aws-sdk/s3-request-presigner` are optional peer dependencies, needed only here.
 *
 * @packageDocumentation
 */

export {
  openS3ArtifactStore,
  type S3ArtifactStoreOptions,
} from './open-s3-artifact-store.js';
export type { S3ReaderOptions } from './s3-data-reader.js';
