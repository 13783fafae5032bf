/** Response body types of the operations, taken from the generated OpenAPI types. */
import type { paths } from '../../../contracts/generated/api-types.ts';

type OkBody<Op> = Op extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;

export type SearchBody = OkBody<paths['/openapi/workflows']['get']>;
export type DetailBody = OkBody<paths['/openapi/workflows/{canvasId}']['get']>;
export type RunBody = OkBody<paths['/openapi/workflow/{canvasId}/run']['post']>;
export type StatusBody = OkBody<paths['/openapi/workflow/{executionId}/status']['get']>;
export type OutputBody = OkBody<paths['/openapi/workflow/{executionId}/output']['get']>;
export type UploadBody = OkBody<paths['/openapi/files/upload']['post']>;
