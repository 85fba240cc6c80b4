/**
 * A file's bytes as base64, for what the renderer sends the backend as bytes over a JSON transport:
 * a photo in the browser harness or dropped on a visit, a site file to import.
 */

/** The file's bytes as base64, in chunks (a spread of a whole photo would overflow the call stack). */
export async function fileBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}
