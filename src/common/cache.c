/* SPDX-License-Identifier: MIT */
/*
 * The build-id keyed cache (include/structlint/cache.h): where it lives,
 * the validated file header, atomic writes.
 */
#include "structlint/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char magic[8] = { 'S', 'L', 'T', 'C', 'A', 'C', 'H', 'E' };

uint64_t slt_cache_checksum(const void *buf, size_t n)
{
	const uint8_t *p = buf;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static int key_ok(const struct slt_cache_key *k)
{
	if (!k || !k->build_id || !k->build_id_len ||
	    k->build_id_len > SLT_CACHE_MAX_ID || !k->kind)
		return 0;
	size_t n = strlen(k->kind);
	if (n == 0 || n > 15)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = k->kind[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
			return 0;
	}
	return 1;
}

static void header(uint8_t h[SLT_CACHE_HEADER_SIZE],
		   const struct slt_cache_key *k, const void *data, size_t size)
{
	memset(h, 0, SLT_CACHE_HEADER_SIZE);
	memcpy(h, magic, sizeof(magic));
	put_le(h + 8, SLT_CACHE_FORMAT, 4);
	put_le(h + 12, k->version, 4);
	memcpy(h + 16, k->kind, strlen(k->kind));
	h[32] = (uint8_t)k->build_id_len;
	memcpy(h + 36, k->build_id, k->build_id_len);
	put_le(h + 104, size, 8);
	put_le(h + 112, slt_cache_checksum(data, size), 8);
}

int slt_cache_parse(const void *buf, size_t n, const struct slt_cache_key *k,
		    const void **payload, size_t *payload_size)
{
	const uint8_t *b = buf;
	*payload = NULL;
	*payload_size = 0;
	if (!key_ok(k) || !b || n < SLT_CACHE_HEADER_SIZE)
		return SLT_ECORRUPT;
	uint64_t size = get_le(b + 104, 8);
	if (size != n - SLT_CACHE_HEADER_SIZE)
		return SLT_ECORRUPT;
	/* The whole header must be what this key writes: one comparison
	 * covers magic, versions, kind, build-id and every padding byte. */
	uint8_t want[SLT_CACHE_HEADER_SIZE];
	header(want, k, b + SLT_CACHE_HEADER_SIZE, (size_t)size);
	if (memcmp(want, b, SLT_CACHE_HEADER_SIZE) != 0)
		return SLT_ECORRUPT;
	*payload = b + SLT_CACHE_HEADER_SIZE;
	*payload_size = (size_t)size;
	return 0;
}

char *slt_cache_dir(void)
{
	const char *v = getenv(SLT_CACHE_ENV);
	char *out = NULL;
	if (v && *v)
		return strdup(v);
	v = getenv("XDG_CACHE_HOME");
	/* XDG: a relative path is invalid and is ignored */
	if (v && *v == '/')
		return asprintf(&out, "%s/structlint", v) < 0 ? NULL : out;
	v = getenv("HOME");
	if (v && *v)
		return asprintf(&out, "%s/.cache/structlint", v) < 0 ? NULL : out;
	return NULL;
}

char *slt_cache_path(const char *dir, const struct slt_cache_key *k)
{
	if (!dir || !key_ok(k))
		return NULL;
	char hex[2 * SLT_CACHE_MAX_ID + 1];
	for (size_t i = 0; i < k->build_id_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", k->build_id[i]);
	char *out = NULL;
	return asprintf(&out, "%s/%s-%s.v%u", dir, k->kind, hex,
			(unsigned)k->version) < 0 ? NULL : out;
}

/* dir and its missing parents, mode 0700 (XDG: "If, when attempting to
 * write a file, the destination directory is non-existent an attempt
 * should be made to create it with permission 0700"). */
static int make_dirs(const char *dir)
{
	char *p = strdup(dir);
	if (!p)
		return -1;
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, 0700) != 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	int rc = mkdir(p, 0700) != 0 && errno != EEXIST ? -1 : 0;
	free(p);
	return rc;
}

int slt_cache_read(const char *dir, const struct slt_cache_key *k,
		   void **data, size_t *size)
{
	*data = NULL;
	*size = 0;
	char *own = dir ? NULL : slt_cache_dir();
	char *path = slt_cache_path(dir ? dir : own, k);
	free(own);
	if (!path)
		return SLT_ENOTFOUND;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return SLT_ENOTFOUND;
	struct stat st;
	uint8_t *buf = NULL;
	size_t n = 0;
	int rc = SLT_ENOTFOUND;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size >= (off_t)SLT_CACHE_HEADER_SIZE &&
	    st.st_size <= (off_t)SLT_CACHE_MAX_SIZE &&
	    (buf = malloc((size_t)st.st_size))) {
		while (n < (size_t)st.st_size) {
			ssize_t got = read(fd, buf + n, (size_t)st.st_size - n);
			if (got <= 0)
				break;
			n += (size_t)got;
		}
		const void *p;
		size_t psize;
		if (n == (size_t)st.st_size &&
		    slt_cache_parse(buf, n, k, &p, &psize) == 0) {
			memmove(buf, p, psize);
			*data = buf;
			*size = psize;
			buf = NULL;
			rc = 0;
		}
	}
	free(buf);
	close(fd);
	return rc;
}

static int write_all(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;
	while (n) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

int slt_cache_write(const char *dir, const struct slt_cache_key *k,
		    const void *data, size_t size)
{
	if (!key_ok(k) || size > SLT_CACHE_MAX_SIZE - SLT_CACHE_HEADER_SIZE)
		return SLT_EUSAGE;
	char *own = dir ? NULL : slt_cache_dir();
	const char *d = dir ? dir : own;
	char *path = slt_cache_path(d, k), *tmp = NULL;
	int rc = SLT_EIO;
	if (!path || asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0) {
		tmp = NULL;
		goto out;
	}
	if (make_dirs(d) != 0)
		goto out;
	int fd = mkstemp(tmp);
	if (fd < 0)
		goto out;
	uint8_t h[SLT_CACHE_HEADER_SIZE];
	header(h, k, data, size);
	int bad = write_all(fd, h, sizeof(h)) || write_all(fd, data, size) ||
		  fchmod(fd, 0600) != 0;
	if (close(fd) != 0 || bad || rename(tmp, path) != 0)
		unlink(tmp);
	else
		rc = 0;
out:
	free(tmp);
	free(path);
	free(own);
	return rc;
}
