#!/usr/bin/env bash
# Builds the Dockerfile's two base images from Debian packages, for machines that reach a Debian
# mirror but no image registry:
#   local/debian-jre17:bookworm        JRE 17, for the runtime stage (RUNTIME_IMAGE): a
#                                      `debootstrap --variant=minbase` root file system, imported
#                                      with `docker import`
#   local/debian-jdk17-maven:bookworm  that plus JDK 17 and Maven, for the build stage (BUILD_IMAGE)
# The build image also trusts this machine's site CAs (/usr/local/share/ca-certificates): where
# Maven Central is reached through a TLS-inspecting proxy, the proxy's CA is one of them. Images
# that exist are reused (the build image is redone when the site CAs change), so a second run
# costs next to nothing.
#
# Usage (root, with docker and debootstrap installed):
#   docker/local-base-images.sh
#   docker build --network host \
#     --build-arg BUILD_IMAGE=local/debian-jdk17-maven:bookworm \
#     --build-arg RUNTIME_IMAGE=local/debian-jre17:bookworm -t overlap-analyze .
# It prints BUILD_IMAGE=... and RUNTIME_IMAGE=... on stdout, for scripts; progress goes to stderr.
#
# Environment:
#   DEBIAN_MIRROR  the mirror to bootstrap from (default: the Debian archive apt is configured with)
#   DEBIAN_SUITE   the release (default: bookworm, the last one whose default JDK is 17)
set -euo pipefail

suite="${DEBIAN_SUITE:-bookworm}"
build_image="local/debian-jdk17-maven:$suite"
site_ca_dir=/usr/local/share/ca-certificates
site_ca_label=io.overlapanalyze.site-ca
runtime_image="local/debian-jre17:$suite"

die() {
  echo "local-base-images: $*" >&2
  exit 1
}

# The first Debian archive apt uses, in either source format: one-line entries
# (/etc/apt/sources.list, *.list) and deb822 stanzas (*.sources). The security archive only holds
# updates, so it is passed over; so are entries apt does not read (other extensions, disabled).
apt_mirror() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -r "$f" ]] || continue
    awk '$1 == "deb" {
           for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/) { print $i; break }
         }' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -r "$f" ]] || continue
    # Stanzas are separated by blank lines; print the URIs of enabled "deb" stanzas.
    awk 'function flush() { if (types ~ /(^| )deb( |$)/ && enabled != "no") print uris; types = ""; uris = ""; enabled = "" }
         /^[ \t]*$/ { flush(); next }
         /^[ \t]*#/ { next }
         tolower($1) == "types:"   { types = $0; sub(/^[^:]*:[ \t]*/, "", types) }
         tolower($1) == "uris:"    { uris = $2 }
         tolower($1) == "enabled:" { enabled = tolower($2) }
         END { flush() }' "$f"
  done
}

mirror="${DEBIAN_MIRROR:-}"
if [[ -z "$mirror" ]]; then
  mirror="$(apt_mirror | grep -E '^https?://' | grep -v -i security | head -n 1 || true)"
fi
[[ -n "$mirror" ]] || die "no Debian mirror found in /etc/apt/sources.list or /etc/apt/sources.list.d; set DEBIAN_MIRROR"

command -v docker >/dev/null 2>&1 || die "docker is not installed"
docker info >/dev/null 2>&1 || die "no Docker engine answers (is dockerd running?)"

# A scratch folder for the run: the root file system while it is built, the CA layer's context.
workdir="$(mktemp -d "${TMPDIR:-/var/tmp}/overlap-base-images.XXXXXX")"
# remove_tree DIR: DIR and everything in it, never what is mounted inside it. debootstrap mounts
# /proc and /sys in the new root while it configures packages and may leave them mounted when it
# fails: unmount those (deepest first) before removing anything.
remove_tree() {
  local m
  while read -r m; do
    umount -l "$m" 2>/dev/null || true
  done < <(awk -v root="$1/" 'index($2, root) == 1 { print $2 }' /proc/mounts | sort -r)
  rm -rf --one-file-system "$1"
}
trap 'remove_tree "$workdir"' EXIT

# The runtime image: a minbase root file system with the JRE, imported.
runtime_from_debootstrap() {
  local rootfs="$workdir/rootfs" started=$SECONDS
  if docker image inspect "$runtime_image" >/dev/null 2>&1; then
    echo "local-base-images: $runtime_image exists, reused" >&2
    return 0
  fi
  command -v debootstrap >/dev/null 2>&1 || die "debootstrap is not installed (apt-get install debootstrap)"
  echo "local-base-images: building $runtime_image: debootstrap $suite from $mirror..." >&2
  if ! debootstrap --variant=minbase --include=openjdk-17-jre-headless "$suite" "$rootfs" "$mirror" \
      >"$workdir/debootstrap.log" 2>&1; then
    tail -n 20 "$workdir/debootstrap.log" >&2
    die "debootstrap of $runtime_image failed (log above)"
  fi
  # The downloaded packages and the index files are of no use in an image.
  rm -rf "${rootfs:?}"/var/cache/apt/archives/*.deb "${rootfs:?}"/var/lib/apt/lists/*
  tar -C "$rootfs" -c . | docker import \
      --change 'ENV LANG=C.UTF-8' \
      --change 'CMD ["/bin/bash"]' \
      - "$runtime_image" >/dev/null
  remove_tree "$rootfs"
  echo "local-base-images: $runtime_image built in $((SECONDS - started)) s" >&2
}

# The digest of this machine's site CAs (their contents, in name order); the build image carries
# it as a label, so that it is rebuilt when they change.
site_ca_digest() {
  find "$site_ca_dir" -type f -name '*.crt' -print0 2>/dev/null | sort -z | xargs -0r cat | sha256sum | cut -c1-64
}

# The build image: the runtime image plus the JDK and Maven, installed by apt from the same mirror
# (the root file system's sources.list names it) in a build on the host's network, which costs a
# fraction of a second debootstrap; then the site CAs, in a layer of their own.
build_on_runtime() {
  local old current context="$workdir/build-image" started=$SECONDS digest
  digest="$(site_ca_digest)"
  current="$(docker image inspect -f "{{ index .Config.Labels \"$site_ca_label\" }}" "$build_image" 2>/dev/null || true)"
  if [[ "$current" == "$digest" ]]; then
    echo "local-base-images: $build_image exists, reused" >&2
    return 0
  fi
  old="$(docker image inspect -f '{{ .Id }}' "$build_image" 2>/dev/null || true)"
  mkdir -p "$context/ca"
  [[ ! -d "$site_ca_dir" ]] || cp -R "$site_ca_dir/." "$context/ca/"
  cat >"$context/Dockerfile" <<DOCKERFILE
FROM $runtime_image
RUN apt-get update -qq \\
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openjdk-17-jdk-headless maven >/dev/null \\
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb
COPY ca/ $site_ca_dir/
RUN update-ca-certificates >/dev/null
LABEL $site_ca_label=$digest
DOCKERFILE
  echo "local-base-images: building $build_image: $runtime_image with the JDK, Maven and this machine's site CAs..." >&2
  if ! docker build --network host -t "$build_image" "$context" >"$workdir/build.log" 2>&1; then
    tail -n 20 "$workdir/build.log" >&2
    die "could not build $build_image (log above)"
  fi
  # The image it replaces (older CAs) has no other use.
  if [[ -n "$old" && "$old" != "$(docker image inspect -f '{{ .Id }}' "$build_image")" ]]; then
    docker image rm "$old" >/dev/null 2>&1 || true
  fi
  echo "local-base-images: $build_image built in $((SECONDS - started)) s" >&2
}

runtime_from_debootstrap
build_on_runtime

# For scripts: the build arguments that select these images.
echo "BUILD_IMAGE=$build_image"
echo "RUNTIME_IMAGE=$runtime_image"
