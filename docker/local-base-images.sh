#!/usr/bin/env bash
# Builds the Dockerfile's two base images from Debian packages, for machines that reach a Debian
# mirror but no image registry:
#   local/debian-jdk17-maven:bookworm  JDK 17 and Maven, for the build stage (BUILD_IMAGE)
#   local/debian-jre17:bookworm        JRE 17, for the runtime stage (RUNTIME_IMAGE)
# Each is a `debootstrap --variant=minbase` root file system turned into an image by
# `docker import`. The build image also trusts this machine's site CAs
# (/usr/local/share/ca-certificates), in a thin layer of its own: where Maven Central is reached
# through a TLS-inspecting proxy, the proxy's CA is one of them. Images that exist are reused (the
# CA layer is redone when the site CAs change), so a second run costs next to nothing.
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
build_rootfs_image="local/debian-jdk17-maven-rootfs:$suite"
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

# One scratch folder for the whole run: the root file systems while they are built, and the
# packages debootstrap downloads, which the second image reuses (the JRE's are among the JDK's).
workdir="$(mktemp -d "${TMPDIR:-/var/tmp}/overlap-base-images.XXXXXX")"
mkdir -p "$workdir/debs"
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

# import_rootfs NAME PACKAGES: a minbase root file system with PACKAGES, imported as NAME.
import_rootfs() {
  local name="$1" packages="$2" rootfs="$workdir/rootfs" started=$SECONDS
  if docker image inspect "$name" >/dev/null 2>&1; then
    echo "local-base-images: $name exists, reused" >&2
    return 0
  fi
  command -v debootstrap >/dev/null 2>&1 || die "debootstrap is not installed (apt-get install debootstrap)"
  echo "local-base-images: building $name from $mirror ($suite: $packages)..." >&2
  if ! debootstrap --variant=minbase --cache-dir="$workdir/debs" --include="$packages" \
      "$suite" "$rootfs" "$mirror" >"$workdir/debootstrap.log" 2>&1; then
    tail -n 20 "$workdir/debootstrap.log" >&2
    die "debootstrap of $name failed (log above)"
  fi
  # The downloaded packages and the index files are of no use in an image.
  rm -rf "${rootfs:?}"/var/cache/apt/archives/*.deb "${rootfs:?}"/var/lib/apt/lists/*
  tar -C "$rootfs" -c . | docker import \
      --change 'ENV LANG=C.UTF-8' \
      --change 'CMD ["/bin/bash"]' \
      - "$name" >/dev/null
  remove_tree "$rootfs"
  echo "local-base-images: $name built in $((SECONDS - started)) s" >&2
}

# The digest of this machine's site CAs (their contents, in name order); the build image carries
# it as a label, so that it is rebuilt when they change.
site_ca_digest() {
  find "$site_ca_dir" -type f -name '*.crt' -print0 2>/dev/null | sort -z | xargs -0r cat | sha256sum | cut -c1-64
}

# has_site_cas NAME: whether NAME exists and trusts exactly this machine's site CAs.
has_site_cas() {
  local current
  current="$(docker image inspect -f "{{ index .Config.Labels \"$site_ca_label\" }}" "$1" 2>/dev/null || true)"
  [[ -n "$current" && "$current" == "$(site_ca_digest)" ]]
}

# add_site_cas FROM NAME: FROM plus this machine's site CAs, as NAME.
add_site_cas() {
  local from="$1" name="$2" old context="$workdir/site-cas"
  old="$(docker image inspect -f '{{ .Id }}' "$name" 2>/dev/null || true)"
  mkdir -p "$context/ca"
  [[ ! -d "$site_ca_dir" ]] || cp -R "$site_ca_dir/." "$context/ca/"
  cat >"$context/Dockerfile" <<DOCKERFILE
FROM $from
COPY ca/ $site_ca_dir/
RUN update-ca-certificates >/dev/null
LABEL $site_ca_label=$(site_ca_digest)
DOCKERFILE
  echo "local-base-images: adding this machine's site CAs to $name..." >&2
  if ! docker build --network none -t "$name" "$context" >"$workdir/build.log" 2>&1; then
    tail -n 20 "$workdir/build.log" >&2
    die "could not add the site CAs to $name (log above)"
  fi
  # The image it replaces (older CAs) has no other use.
  if [[ -n "$old" && "$old" != "$(docker image inspect -f '{{ .Id }}' "$name")" ]]; then
    docker image rm "$old" >/dev/null 2>&1 || true
  fi
}

if has_site_cas "$build_image"; then
  echo "local-base-images: $build_image exists, reused" >&2
else
  import_rootfs "$build_rootfs_image" "openjdk-17-jdk-headless,maven"
  add_site_cas "$build_rootfs_image" "$build_image"
fi
import_rootfs "$runtime_image" "openjdk-17-jre-headless"

# For scripts: the build arguments that select these images.
echo "BUILD_IMAGE=$build_image"
echo "RUNTIME_IMAGE=$runtime_image"
