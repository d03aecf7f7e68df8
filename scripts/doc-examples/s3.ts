// The free names of the TSDoc examples in src/store/s3/ (see common.ts): the store's client and
// bucket, its key layout and object operations, and the SDK's upload of one put.
import type { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Upload } from '@aws-sdk/lib-storage';
import type { GcReport } from '../../src/store/artifact-store-types.js';
import type { S3Keys } from '../../src/store/s3/s3-keys.js';
import type { S3Objects } from '../../src/store/s3/s3-objects.js';
import type { S3StoreBackend } from '../../src/store/s3/s3-store-backend.js';
import type { UploadSettings } from '../../src/store/s3/upload-data.js';

export declare const client: S3Client;
export declare const bucket: string;
export declare const command: PutObjectCommand;
export declare const objects: S3Objects;
export declare const keys: S3Keys;
export declare const key: string;
export declare const backend: S3StoreBackend;
export declare const settings: UploadSettings;
export declare const upload: Upload;
export declare const uploadId: string;
export declare const report: GcReport;
