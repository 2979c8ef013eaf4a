/* SPDX-License-Identifier: MIT */
/*
 * structlint — a small on-disk cache of derived data, keyed by the build-id
 * of the binary it was derived from (the DWARF name index of src/load, the
 * static access map).  A cache file only ever saves time: whatever is read
 * back is validated, and a missing, truncated, corrupt or foreign file is
 * reported as absent, so the caller rebuilds the data and writes it again.
 *
 * Where: $STRUCTLINT_CACHE_DIR, else $XDG_CACHE_HOME/structlint, else
 * $HOME/.cache/structlint (XDG Base Directory Specification 0.8,
 * "$XDG_CACHE_HOME defines the base directory relative to which
 * user-specific non-essential data files should be stored", default
 * $HOME/.cache).  One file per (kind, build-id, kind version):
 * DIR/KIND-HEXBUILDID.vVERSION.
 *
 * File format (all integers little-endian), SLT_CACHE_HEADER_SIZE bytes of
 * header then the payload:
 *   0   8  magic "SLTCACHE"
 *   8   4  container version (SLT_CACHE_FORMAT)
 *   12  4  the kind's payload version (slt_cache_key.version)
 *   16  16 kind, NUL-padded
 *   32  1  build-id length (1..64), then 3 zero bytes
 *   36  64 build-id, zero-padded
 *   100 4  checked: 0 when the checksum covers the whole payload; else
 *          it covers the payload's first `checked` bytes (its head) and
 *          the kind checks the rest itself, part by part, as it reads
 *          them (slt_cache_write_head(); a reader before this field
 *          was used sees a foreign file, as it should)
 *   104 8  payload size in bytes (the file is exactly header + payload)
 *   112 8  FNV-1a 64 of the payload (or of its head)
 * Every field must match the key and the file; otherwise the file is not
 * used.
 *
 * Concurrency: a writer writes a temporary file in the same directory and
 * rename(2)s it over the old one, so a reader sees an old or a new file,
 * never a partial one; of two concurrent writers the last rename wins (the
 * other's additions are lost, which only costs a rebuild later).
 *
 * Nothing here prints; every failure is a return code.
 */
#ifndef STRUCTLINT_CACHE_H
#define STRUCTLINT_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "structlint/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SLT_CACHE_ENV "STRUCTLINT_CACHE_DIR"
#define SLT_CACHE_FORMAT 1u
#define SLT_CACHE_HEADER_SIZE 120u
#define SLT_CACHE_MAX_ID 64u
/* Files larger than this are not read (bytes). */
#define SLT_CACHE_MAX_SIZE (256u << 20)

struct slt_cache_key {
	const uint8_t *build_id; /* NT_GNU_BUILD_ID bytes, 1..64 */
	size_t build_id_len;
	const char *kind;        /* 1..15 chars of [a-z0-9_]: "index", "access" */
	uint32_t version;        /* the kind's payload format version; bump it
				    when the payload's meaning changes */
};

/* The cache directory (see above), malloc()ed; NULL when none can be named
 * (no variable set and no HOME) or out of memory. */
char *slt_cache_dir(void);

/* DIR/KIND-HEXID.vVERSION for key k, malloc()ed; NULL when the key is
 * invalid or out of memory. */
char *slt_cache_path(const char *dir, const struct slt_cache_key *k);

/*
 * Check a whole cache file's bytes buf[0, n) against key k: 0 with
 * *payload pointing into buf and *payload_size bytes, or SLT_ECORRUPT when
 * any header field, the size or the checksum does not match.  Bounds-checked
 * for any input (fuzzed: tests/fuzz/fuzz_index.c).
 */
int slt_cache_parse(const void *buf, size_t n, const struct slt_cache_key *k,
		    const void **payload, size_t *payload_size);

/*
 * Read the payload for k from dir (NULL: slt_cache_dir()): 0 with *data
 * (malloc()ed, free() it) and *size, or SLT_ENOTFOUND when there is no
 * usable file (absent, unreadable, too large, or failing slt_cache_parse()).
 */
int slt_cache_read(const char *dir, const struct slt_cache_key *k,
		   void **data, size_t *size);

/*
 * Write payload data[0, size) for k into dir (NULL: slt_cache_dir(), made
 * with mode 0700 if missing), atomically (temporary file + rename).
 * 0, SLT_EUSAGE (invalid key) or SLT_EIO (errno says why); callers may
 * ignore a failure: the data is then rebuilt next time.
 */
int slt_cache_write(const char *dir, const struct slt_cache_key *k,
		    const void *data, size_t size);

/*
 * The same payload whose first `checked` bytes (its head) alone are
 * covered by the header's checksum (checked == size: the whole, as
 * slt_cache_write()): the kind stores checksums of the rest in its head
 * and checks each part it reads (slt_cache_pread()), so a reader touches
 * only the head and the parts it needs.
 */
int slt_cache_write_head(const char *dir, const struct slt_cache_key *k,
			 const void *data, size_t size, size_t checked);

/*
 * An open cache file for k in dir (NULL: slt_cache_dir()) whose header
 * and head (the checked part of the payload: all of it for a file written
 * by slt_cache_write()) are read and checked: 0 and *f, or SLT_ENOTFOUND
 * as slt_cache_read().  The head stays valid until slt_cache_close().
 */
struct slt_cache_file;
int slt_cache_open(const char *dir, const struct slt_cache_key *k,
		   struct slt_cache_file **f);

/* f's head (*head_size bytes) and the size of its whole payload. */
const void *slt_cache_head(const struct slt_cache_file *f, size_t *head_size,
			   uint64_t *payload_size);

/* Read the payload's bytes [off, off + n) into buf: 0, SLT_ECORRUPT when
 * they lie outside the payload, SLT_EIO when they cannot be read.  The
 * bytes past the head are not checked here. */
int slt_cache_pread(struct slt_cache_file *f, uint64_t off, void *buf, size_t n);

/* Close f (NULL: nothing). */
void slt_cache_close(struct slt_cache_file *f);

/* FNV-1a 64 of buf[0, n), as stored in the header. */
uint64_t slt_cache_checksum(const void *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
