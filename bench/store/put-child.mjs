// One timed put of a file to s3rver, in a process of its own so its peak RSS is its own:
// `node put-child.mjs spoolforge|upload FILE ENDPOINT BUCKET PREFIX`. Prints JSON: seconds,
// peak RSS (MiB) and, for spoolforge, the record.
import { createReadStream } from 'node:fs';
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';

const [mode, file, endpoint, bucket, prefix, s3Entry] = process.argv.slice(2);
const clientConfig = {
  endpoint,
  region: 'us-east-1',
  forcePathStyle: true,
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
};
const source = () => createReadStream(file, { highWaterMark: 1024 * 1024 });
const started = performance.now();
let record;
if (mode === 'spoolforge') {
  const { openS3ArtifactStore } = await import(s3Entry);
  const store = await openS3ArtifactStore({ bucket, prefix, clientConfig });
  record = await store.put(source(), { name: 'bench' });
} else {
  const upload = new Upload({
    client: new S3Client(clientConfig),
    params: { Bucket: bucket, Key: `${prefix}plain.data`, Body: source() },
    partSize: 8 * 1024 * 1024,
    queueSize: 4,
  });
  await upload.done();
}
const seconds = (performance.now() - started) / 1000;
const peakRssMebibytes = process.resourceUsage().maxRSS / 1024;
process.stdout.write(JSON.stringify({ seconds, peakRssMebibytes, record }));
