/** Debian's Chromium, which .ci/run installs; CHROMIUM_PATH points elsewhere. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * How the browser tests start Debian's Chromium: headless on a machine whose only network is
 * loopback. Without the background-networking flags Chromium keeps trying to reach Google's
 * hosts; a fresh profile (each launch) keeps runs independent.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
