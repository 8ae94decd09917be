// The end-to-end tests drive Debian's Chromium; install it where it is missing and we can.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const binary = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (fs.existsSync(binary)) process.exit(0);

const canInstall = process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get');
if (!canInstall) {
  console.error(
    `Chromium not found at ${binary}. Install it with:\n  sudo apt-get update && sudo apt-get install -y chromium poppler-utils\n` +
      'or point CHROMIUM_PATH at a Chromium binary.',
  );
  process.exit(1);
}
console.log('Installing Debian chromium for the end-to-end tests…');
execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium poppler-utils', {
  stdio: 'inherit',
});
