import { createTogglesApp } from './toggles-app.js';

// Environment-agnostic on purpose: synthesis needs no account, credentials or network.
// `cdk deploy -c unleashUrl=https://flags.example.com` sets the public URL behind a custom domain.
const { app } = createTogglesApp();
app.synth();
