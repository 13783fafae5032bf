/** Shape of the seeded test data prepared in Node (load/node/prepare-data.ts) and read by k6. */
/** A file to upload; content is base64 so binary kinds (PNG, PDF) survive JSON. */
export interface UploadSample {
  name: string;
  contentType: string;
  base64: string;
}

export interface LoadData {
  seed: number;
  /** Values for string variables. */
  strings: string[];
  /** Search keywords (workflow titles discovered at run time are added to these). */
  keywords: string[];
  /** Files for the upload scenario and for resource variables. */
  files: UploadSample[];
}
