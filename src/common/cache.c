/* SPDX-License-Identifier: MIT */
/*
 * The build-id keyed cache (include/structlint/cache.h): where it lives,
 * the validated file header, atomic writes.
 */
#include "structlint/cache.h"

#include <errno.h>
#include <stdbool.h>
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

/* checked: the bytes the checksum covers, 0 for the whole payload */
static void header(uint8_t h[SLT_CACHE_HEADER_SIZE],
		   const struct slt_cache_key *k, const void *data, size_t size,
		   size_t checked)
{
	memset(h, 0, SLT_CACHE_HEADER_SIZE);
	memcpy(h, magic, sizeof(magic));
	put_le(h + 8, SLT_CACHE_FORMAT, 4);
	put_le(h + 12, k->version, 4);
	memcpy(h + 16, k->kind, strlen(k->kind));
	h[32] = (uint8_t)k->build_id_len;
	memcpy(h + 36, k->build_id, k->build_id_len);
	put_le(h + 100, checked, 4);
	put_le(h + 104, size, 8);
	put_le(h + 112, slt_cache_checksum(data, checked ? checked : size), 8);
}

/* Check header h of a file of n bytes against k, with the checked part
 * of the payload at payload: 0 and *checked (0: the whole payload), or
 * SLT_ECORRUPT. */
static int check_header(const uint8_t *h, uint64_t n, const struct slt_cache_key *k,
			const uint8_t *payload, size_t *checked)
{
	if (!key_ok(k) || n < SLT_CACHE_HEADER_SIZE)
		return SLT_ECORRUPT;
	uint64_t size = get_le(h + 104, 8), c = get_le(h + 100, 4);
	if (size != n - SLT_CACHE_HEADER_SIZE || c > size)
		return SLT_ECORRUPT;
	/* The whole header must be what this key writes: one comparison
	 * covers magic, versions, kind, build-id and every padding byte. */
	uint8_t want[SLT_CACHE_HEADER_SIZE];
	header(want, k, payload, (size_t)size, (size_t)c);
	if (memcmp(want, h, SLT_CACHE_HEADER_SIZE) != 0)
		return SLT_ECORRUPT;
	*checked = (size_t)c;
	return 0;
}

int slt_cache_parse(const void *buf, size_t n, const struct slt_cache_key *k,
		    const void **payload, size_t *payload_size)
{
	const uint8_t *b = buf;
	size_t checked;
	*payload = NULL;
	*payload_size = 0;
	if (!b || n < SLT_CACHE_HEADER_SIZE ||
	    check_header(b, n, k, b + SLT_CACHE_HEADER_SIZE, &checked) || checked)
		return SLT_ECORRUPT;
	*payload = b + SLT_CACHE_HEADER_SIZE;
	*payload_size = n - SLT_CACHE_HEADER_SIZE;
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

struct slt_cache_file {
	int fd;
	uint64_t size;   /* payload bytes */
	uint8_t *head;   /* the checked part of the payload */
	size_t head_size;
};

static bool read_at(int fd, uint64_t off, void *buf, size_t n)
{
	uint8_t *p = buf;
	while (n) {
		ssize_t got = pread(fd, p, n, (off_t)off);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return false;
		p += got;
		off += (uint64_t)got;
		n -= (size_t)got;
	}
	return true;
}

void slt_cache_close(struct slt_cache_file *f)
{
	if (!f)
		return;
	if (f->fd >= 0)
		close(f->fd);
	free(f->head);
	free(f);
}

int slt_cache_open(const char *dir, const struct slt_cache_key *k,
		   struct slt_cache_file **out)
{
	*out = NULL;
	char *own = dir ? NULL : slt_cache_dir();
	char *path = slt_cache_path(dir ? dir : own, k);
	free(own);
	if (!path)
		return SLT_ENOTFOUND;
	struct slt_cache_file *f = calloc(1, sizeof(*f));
	if (!f) {
		free(path);
		return SLT_ENOTFOUND;
	}
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	struct stat st;
	uint8_t h[SLT_CACHE_HEADER_SIZE];
	if (f->fd < 0 || fstat(f->fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < (off_t)SLT_CACHE_HEADER_SIZE ||
	    st.st_size > (off_t)SLT_CACHE_MAX_SIZE ||
	    !read_at(f->fd, 0, h, sizeof(h)))
		goto bad;
	f->size = (uint64_t)st.st_size - SLT_CACHE_HEADER_SIZE;
	uint64_t c = get_le(h + 100, 4);
	f->head_size = (size_t)(c && c <= f->size ? c : f->size);
	size_t checked;
	if (!(f->head = malloc(f->head_size + 1)) ||
	    !read_at(f->fd, SLT_CACHE_HEADER_SIZE, f->head, f->head_size) ||
	    check_header(h, (uint64_t)st.st_size, k, f->head, &checked))
		goto bad;
	*out = f;
	return 0;
bad:
	slt_cache_close(f);
	return SLT_ENOTFOUND;
}

const void *slt_cache_head(const struct slt_cache_file *f, size_t *head_size,
			   uint64_t *payload_size)
{
	*head_size = f->head_size;
	*payload_size = f->size;
	return f->head;
}

int slt_cache_pread(struct slt_cache_file *f, uint64_t off, void *buf, size_t n)
{
	if (off > f->size || n > f->size - off)
		return SLT_ECORRUPT;
	return read_at(f->fd, SLT_CACHE_HEADER_SIZE + off, buf, n) ? 0 : SLT_EIO;
}

int slt_cache_read(const char *dir, const struct slt_cache_key *k,
		   void **data, size_t *size)
{
	struct slt_cache_file *f;
	*data = NULL;
	*size = 0;
	if (slt_cache_open(dir, k, &f))
		return SLT_ENOTFOUND;
	if (f->head_size != f->size) { /* a part is left to the kind to check */
		slt_cache_close(f);
		return SLT_ENOTFOUND;
	}
	*data = f->head;
	*size = f->head_size;
	f->head = NULL;
	slt_cache_close(f);
	return 0;
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
	return slt_cache_write_head(dir, k, data, size, 0);
}

int slt_cache_write_head(const char *dir, const struct slt_cache_key *k,
			 const void *data, size_t size, size_t checked)
{
	if (!key_ok(k) || size > SLT_CACHE_MAX_SIZE - SLT_CACHE_HEADER_SIZE ||
	    checked > size)
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
	header(h, k, data, size, checked == size ? 0 : checked);
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
