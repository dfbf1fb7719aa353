/**
 * True when an `Accept-Encoding` header admits gzip: `gzip` or `*` listed with a weight above
 * zero (`gzip;q=0` refuses it, RFC 9110 §12.5.3). An explicit `gzip` entry wins over `*`.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let wildcard = false;
  for (const entry of header.split(',')) {
    const [coding = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const weight = params.find((param) => param.startsWith('q='));
    const admitted = weight === undefined || Number(weight.slice(2)) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') return admitted;
    if (coding === '*') wildcard = admitted;
  }
  return wildcard;
}
