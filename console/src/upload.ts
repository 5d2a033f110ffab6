// uploadFile as a GraphQL multipart request sent with XMLHttpRequest, whose
// upload events give a progress bar (fetch has none).
import { stringifyDocument } from '@urql/core';
import { UploadFile } from './ops';
import type { FilePurpose, UploadFileMutation } from './gql/graphql';
import { type Problem, toProblems } from './problems';

export type Uploaded = UploadFileMutation['uploadFile'];

export function uploadFile(
  file: File,
  purpose: FilePurpose,
  onProgress: (fraction: number) => void,
): Promise<Uploaded> {
  const form = new FormData();
  form.append(
    'operations',
    JSON.stringify({ query: stringifyDocument(UploadFile), variables: { file: null, purpose } }),
  );
  form.append('map', JSON.stringify({ '0': ['variables.file'] }));
  form.append('0', file, file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/graphql');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject([{ message: 'The upload failed: the network is unreachable.', param: 'file' } as Problem]);
    xhr.onload = () => {
      const body = xhr.response as { data?: UploadFileMutation | null; errors?: unknown[] } | null;
      if (body?.data?.uploadFile) {
        onProgress(1);
        resolve(body.data.uploadFile);
        return;
      }
      const problems = toProblems(body?.errors);
      reject(problems.length ? problems : [{ message: `The upload failed (HTTP ${xhr.status}).`, param: 'file' }]);
    };
    xhr.send(form);
  });
}
