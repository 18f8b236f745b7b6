// `npm run dev`: the server with reload (tsx watch) and Vite's dev server with HMR, side by side.
import { spawn } from 'node:child_process';

const port = process.env.PORT ?? '5000';
const procs = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], { stdio: 'inherit', env: { ...process.env, PORT: port } }),
  spawn('npx', ['vite', '--host', '127.0.0.1'], { stdio: 'inherit', env: { ...process.env, PORT: port } }),
];
console.log(`dev: API on http://localhost:${port}, web app with reload on http://localhost:5173`);
const stop = () => procs.forEach((p) => p.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
procs.forEach((p) => p.on('exit', stop));
