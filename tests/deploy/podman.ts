/**
 * Podman for the deployment tests: Debian's podman with runc (crun fails on this machine's hybrid
 * cgroups), a base image made from Debian's packages when no registry is reachable, and the
 * project's images built from it. Images are reused across runs; containers never are.
 */
import { must, ROOT, run } from './helpers.ts';

export const CONTAINERS_CONF = `${ROOT}deploy/container/podman-ci.conf`;
export const BASE_IMAGE = Deno.env.get('BASE_IMAGE') ?? 'localhost/lmp-debian-base:trixie';
export const IMAGES = {
  api: { name: 'localhost/legal-mail-portal-api:latest', file: 'deploy/container/Containerfile' },
  db: { name: 'localhost/legal-mail-portal-db:latest', file: 'deploy/container/postgres/Containerfile' },
  proxy: { name: 'localhost/legal-mail-portal-proxy:latest', file: 'deploy/container/nginx/Containerfile' },
} as const;

export const PODMAN_ENV = { CONTAINERS_CONF, PATH: Deno.env.get('PATH') ?? '/usr/bin:/bin' };

/** podman with the test's containers.conf; throws with podman's words on failure. */
export function podman(args: string[], options: { stdin?: Uint8Array } = {}): Promise<string> {
  return must('podman', args, { env: PODMAN_ENV, ...options });
}

/** The base image: present, or debootstrapped now (about a minute). */
export async function ensureBaseImage(): Promise<void> {
  await must('bash', [`${ROOT}deploy/container/base-image.sh`, BASE_IMAGE], { env: PODMAN_ENV });
}

/** Builds one of the project's images (layers cached by podman between runs). */
export async function buildImage(which: keyof typeof IMAGES): Promise<void> {
  const { name, file } = IMAGES[which];
  // docker format: the OCI format has no HEALTHCHECK.
  // The machine's CA bundle: where a TLS-inspecting proxy sits between the build and the npm registry, its
  // CA is there (npm on this host reads the same file), and Debian's bundle in the image lacks it.
  const ca = ['--secret', 'id=ca,src=/etc/ssl/certs/ca-certificates.crt'];
  await podman([
    'build',
    '--format',
    'docker',
    ...ca,
    '--build-arg',
    `BASE_IMAGE=${BASE_IMAGE}`,
    '-f',
    file,
    '-t',
    name,
    ROOT,
  ]);
}

/** Whether podman can build and run here at all. */
export async function podmanWorks(): Promise<boolean> {
  return (await run('podman', ['info'], { env: PODMAN_ENV })).code === 0;
}
