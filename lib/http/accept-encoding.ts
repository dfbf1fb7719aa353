/**
 * True when an `Accept-Encoding` header admits gzip: `gzip` or `*` listed with a weight above
 * zero (`gzip;q=0` refuses it, RFC 9110 §12.5.3). An explicit `gzip` entry wins over `*`.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let admitted = known.get(header);
  if (admitted === undefined) {
    admitted = parsedAcceptsGzip(header);
    // Clients send a handful of different headers; a flood of odd ones only empties the memo.
    if (known.size >= KNOWN_HEADERS) known.clear();
    known.set(header, admitted);
  }
  return admitted;
}

/** Answers by header text: every SDK poll asks twice (the operation and the answer's last step), with the same header as the last poll. */
const known = new Map<string, boolean>();
const KNOWN_HEADERS = 100;

function parsedAcceptsGzip(header: string): boolean {
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
