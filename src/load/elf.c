/* SPDX-License-Identifier: MIT */
/* ELF file access: mapping, sections, decompression, ET_REL relocation,
 * build-id, debuglink and separate debug files.  See elf.h. */
#include "load/elf.h"
#include "load/elf_reloc.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2 /* gABI, 2022 */
#endif

/* Largest inflated size accepted per compressed byte: deflate cannot exceed
 * ~1032:1; real debug info compresses 3-10:1.  Bounds memory on hostile
 * headers (fuzzing) while accepting any plausible section. */
#define MAX_RATIO 2048u
#define MAX_SLACK (1u << 20)

struct sec_cache {
	bool loaded;
	bool busy;      /* being loaded: relocating it needs itself */
	const uint8_t *data;
	size_t size;
	uint8_t *owned; /* malloc()ed buffer when decompressed/relocated */
};

struct slt_elf {
	char *path;
	uint8_t *image;       /* the mapping or the private copy */
	size_t image_size;
	bool mapped;          /* image from mmap (else malloc) */
	Elf *elf;
	bool is64, le;
	unsigned type, machine;
	size_t nsec;
	struct slt_elf_section *sec;
	struct sec_cache *cache;
};

static uint32_t rd32(const uint8_t *p, bool le)
{
	return le ? (uint32_t)p[0] | (uint32_t)p[1] << 8 |
			    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
		  : (uint32_t)p[3] | (uint32_t)p[2] << 8 |
			    (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
}

static uint64_t rd64(const uint8_t *p, bool le)
{
	uint64_t lo = rd32(p, le), hi = rd32(p + 4, le);
	return le ? lo | hi << 32 : hi | lo << 32;
}

static int parse(struct slt_elf *e, struct slt_error *err)
{
	const char *f = e->path;
	if (e->image_size < EI_NIDENT || memcmp(e->image, ELFMAG, SELFMAG) != 0)
		return slt_error_set(err, SLT_ENOTELF, f, 0,
				     "give an ELF file with debug info",
				     "not an ELF file");
	if (elf_version(EV_CURRENT) == EV_NONE)
		return slt_error_set(err, SLT_EUNSUPPORTED, f, -1, NULL,
				     "libelf: %s", elf_errmsg(-1));
	e->elf = elf_memory((char *)e->image, e->image_size);
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF)
		return slt_error_set(err, SLT_ENOTELF, f, 0, NULL,
				     "not an ELF file: %s", elf_errmsg(-1));
	GElf_Ehdr eh;
	if (!gelf_getehdr(e->elf, &eh))
		return slt_error_set(err, SLT_ECORRUPT, f, 0, NULL,
				     "bad ELF header: %s", elf_errmsg(-1));
	e->is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	e->le = eh.e_ident[EI_DATA] != ELFDATA2MSB;
	e->type = eh.e_type;
	e->machine = eh.e_machine;
	/* a cut copy loses its section headers first (they end the file):
	 * libelf then shows no sections at all; say what happened */
	uint64_t shsz = (uint64_t)(eh.e_shnum ? eh.e_shnum : 1) * eh.e_shentsize;
	if (eh.e_shoff && (eh.e_shoff > e->image_size ||
			   shsz > e->image_size - eh.e_shoff))
		return slt_error_set(err, SLT_ECORRUPT, f, (int64_t)eh.e_shoff,
				     "the file is truncated: copy it again",
				     "its section headers (%llu bytes at byte %llu) lie "
				     "beyond its end (%zu bytes)",
				     (unsigned long long)shsz,
				     (unsigned long long)eh.e_shoff, e->image_size);
	size_t shnum, shstrndx;
	if (elf_getshdrnum(e->elf, &shnum) != 0 ||
	    elf_getshdrstrndx(e->elf, &shstrndx) != 0)
		return slt_error_set(err, SLT_ECORRUPT, f, (int64_t)eh.e_shoff,
				     NULL, "bad section headers: %s",
				     elf_errmsg(-1));
	e->sec = calloc(shnum ? shnum : 1, sizeof(*e->sec));
	e->cache = calloc(shnum ? shnum : 1, sizeof(*e->cache));
	if (!e->sec || !e->cache)
		return slt_error_set(err, SLT_ENOMEM, f, -1, NULL,
				     "out of memory");
	for (size_t i = 0; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(e->elf, i);
		GElf_Shdr sh;
		if (!scn || !gelf_getshdr(scn, &sh))
			return slt_error_set(err, SLT_ECORRUPT, f,
					     (int64_t)eh.e_shoff, NULL,
					     "bad section header %zu: %s", i,
					     elf_errmsg(-1));
		struct slt_elf_section *s = &e->sec[i];
		const char *n = elf_strptr(e->elf, shstrndx, sh.sh_name);
		s->name = n ? n : "";
		s->type = sh.sh_type;
		s->flags = sh.sh_flags;
		s->addr = sh.sh_addr;
		s->offset = sh.sh_offset;
		s->size = sh.sh_size;
		s->link = sh.sh_link;
		s->info = sh.sh_info;
		s->entsize = sh.sh_entsize;
	}
	e->nsec = shnum;
	return 0;
}

static int make(const char *path, struct slt_elf **out, struct slt_error *err)
{
	*out = NULL;
	struct slt_elf *e = calloc(1, sizeof(*e));
	if (!e || !(e->path = strdup(path ? path : ""))) {
		free(e);
		return slt_error_set(err, SLT_ENOMEM, path, -1, NULL,
				     "out of memory");
	}
	*out = e;
	return 0;
}

int slt_elf_open(const char *path, struct slt_elf **out,
		 struct slt_error *err)
{
	struct slt_elf *e;
	int rc = make(path, &e, err);
	if (rc)
		return rc;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		rc = slt_error_set(err, SLT_EIO, path, -1,
				   "check the path and permissions", "%s",
				   strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode) || st.st_size <= 0) {
		rc = slt_error_set(err, st.st_size == 0 ? SLT_ENOTELF : SLT_EIO,
				   path, -1, NULL, "%s",
				   S_ISREG(st.st_mode) ? "empty file"
						       : "not a regular file");
		goto fail;
	}
	e->image_size = (size_t)st.st_size;
	/* Private writable mapping: libelf may convert foreign-endian headers
	 * in place; nothing ever reaches the file. */
	void *m = mmap(NULL, e->image_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		rc = slt_error_set(err, SLT_EIO, path, -1, NULL, "mmap: %s",
				   strerror(errno));
		goto fail;
	}
	close(fd);
	fd = -1;
	e->image = m;
	e->mapped = true;
	rc = parse(e, err);
	if (rc)
		goto fail;
	*out = e;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	slt_elf_close(e);
	*out = NULL;
	return rc;
}

int slt_elf_open_mem(const void *data, size_t size, const char *name,
		     struct slt_elf **out, struct slt_error *err)
{
	struct slt_elf *e;
	int rc = make(name, &e, err);
	if (rc)
		return rc;
	e->image = malloc(size ? size : 1);
	if (!e->image) {
		slt_elf_close(e);
		*out = NULL;
		return slt_error_set(err, SLT_ENOMEM, name, -1, NULL,
				     "out of memory");
	}
	if (size)
		memcpy(e->image, data, size);
	e->image_size = size;
	rc = parse(e, err);
	if (rc) {
		slt_elf_close(e);
		*out = NULL;
		return rc;
	}
	*out = e;
	return 0;
}

void slt_elf_close(struct slt_elf *e)
{
	if (!e)
		return;
	if (e->cache)
		for (size_t i = 0; i < e->nsec; i++)
			free(e->cache[i].owned);
	free(e->cache);
	free(e->sec);
	if (e->elf)
		elf_end(e->elf);
	if (e->image) {
		if (e->mapped)
			munmap(e->image, e->image_size);
		else
			free(e->image);
	}
	free(e->path);
	free(e);
}

const char *slt_elf_path(const struct slt_elf *e) { return e->path; }
bool slt_elf_is64(const struct slt_elf *e) { return e->is64; }
bool slt_elf_is_le(const struct slt_elf *e) { return e->le; }
unsigned slt_elf_type(const struct slt_elf *e) { return e->type; }
unsigned slt_elf_machine(const struct slt_elf *e) { return e->machine; }
size_t slt_elf_nsections(const struct slt_elf *e) { return e->nsec; }

const struct slt_elf_section *slt_elf_section(const struct slt_elf *e,
					      size_t idx)
{
	return idx < e->nsec ? &e->sec[idx] : NULL;
}

size_t slt_elf_find_section(const struct slt_elf *e, const char *name)
{
	for (size_t i = 1; i < e->nsec; i++)
		if (strcmp(e->sec[i].name, name) == 0)
			return i;
	return 0;
}

bool slt_elf_section_compressed(const struct slt_elf *e, size_t idx)
{
	if (idx >= e->nsec)
		return false;
	return (e->sec[idx].flags & SHF_COMPRESSED) ||
	       strncmp(e->sec[idx].name, ".zdebug", 7) == 0;
}

/* Raw bytes of section idx inside the image, bounds-checked. */
static int raw_bytes(struct slt_elf *e, size_t idx, const uint8_t **p,
		     size_t *n, struct slt_error *err)
{
	const struct slt_elf_section *s = &e->sec[idx];
	*p = NULL;
	*n = 0;
	if (s->type == SHT_NOBITS || s->size == 0)
		return 0;
	if (s->offset > e->image_size || s->size > e->image_size - s->offset)
		return slt_error_set(err, SLT_ECORRUPT, e->path,
				     (int64_t)s->offset,
				     "the file is truncated or corrupt",
				     "section %s (%llu bytes at 0x%llx) extends "
				     "beyond the end of the file",
				     s->name, (unsigned long long)s->size,
				     (unsigned long long)s->offset);
	*p = e->image + s->offset;
	*n = (size_t)s->size;
	return 0;
}

static int inflate_zlib(const uint8_t *in, size_t in_size, uint8_t *out,
			size_t out_size)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return -1;
	int zr = Z_OK;
	size_t in_left = in_size, out_left = out_size;
	z.next_in = (Bytef *)in;
	z.next_out = out;
	while (zr == Z_OK) {
		uInt ci = in_left > UINT_MAX ? UINT_MAX : (uInt)in_left;
		uInt co = out_left > UINT_MAX ? UINT_MAX : (uInt)out_left;
		z.avail_in = ci;
		z.avail_out = co;
		zr = inflate(&z, Z_NO_FLUSH);
		in_left -= ci - z.avail_in;
		out_left -= co - z.avail_out;
		if (zr == Z_OK && ci == z.avail_in && co == z.avail_out)
			break; /* no progress: truncated input or full output */
	}
	inflateEnd(&z);
	return zr == Z_STREAM_END && out_left == 0 ? 0 : -1;
}

/* Every section's bytes are followed by at least one readable zero byte:
 * libdwarf 20210528 reads the code byte of a location or range list entry
 * before checking it against the end of the list's unit
 * (read_single_lle_entry), so a list that runs to the end of the section
 * would be read one byte past it.  Sections inside the image have the
 * next bytes of the image after them; buffers of our own (decompressed,
 * relocated, or a copy of a section that ends the image) get the byte. */
static uint8_t *own_alloc(size_t n)
{
	uint8_t *p = malloc(n + 1);
	if (p)
		p[n] = 0;
	return p;
}

static int own_copy(struct slt_elf *e, struct sec_cache *c,
		    struct slt_error *err)
{
	uint8_t *p = own_alloc(c->size);
	if (!p)
		return slt_error_set(err, SLT_ENOMEM, e->path, -1, NULL,
				     "out of memory");
	memcpy(p, c->data, c->size);
	c->owned = p;
	c->data = p;
	return 0;
}

static int decompress(struct slt_elf *e, size_t idx, const uint8_t *p,
		      size_t n, struct sec_cache *c, struct slt_error *err)
{
	const struct slt_elf_section *s = &e->sec[idx];
	uint32_t ctype;
	uint64_t usize;
	size_t hdr;
	if (s->flags & SHF_COMPRESSED) {
		hdr = e->is64 ? 24 : 12; /* Elf64_Chdr / Elf32_Chdr */
		if (n < hdr)
			goto bad;
		ctype = rd32(p, e->le);
		usize = e->is64 ? rd64(p + 8, e->le) : rd32(p + 4, e->le);
	} else {
		hdr = 12; /* "ZLIB" + 8-byte big-endian size */
		if (n < hdr || memcmp(p, "ZLIB", 4) != 0)
			goto bad;
		ctype = ELFCOMPRESS_ZLIB;
		usize = rd64(p + 4, false);
	}
	if (ctype != ELFCOMPRESS_ZLIB && ctype != ELFCOMPRESS_ZSTD)
		return slt_error_set(err, SLT_EUNSUPPORTED, e->path,
				     (int64_t)s->offset,
				     "decompress it with objcopy "
				     "--decompress-debug-sections",
				     "section %s: unknown compression type %u",
				     s->name, ctype);
	if (usize == 0 || usize > (uint64_t)(n - hdr) * MAX_RATIO + MAX_SLACK ||
	    usize >= SIZE_MAX)
		goto bad;
	c->owned = own_alloc((size_t)usize);
	if (!c->owned)
		return slt_error_set(err, SLT_ENOMEM, e->path, -1, NULL,
				     "out of memory inflating %s (%llu bytes)",
				     s->name, (unsigned long long)usize);
	if (ctype == ELFCOMPRESS_ZLIB) {
		if (inflate_zlib(p + hdr, n - hdr, c->owned, (size_t)usize))
			goto bad;
	} else {
		size_t r = ZSTD_decompress(c->owned, (size_t)usize, p + hdr,
					   n - hdr);
		if (ZSTD_isError(r) || r != usize)
			goto bad;
	}
	c->data = c->owned;
	c->size = (size_t)usize;
	return 0;
bad:
	free(c->owned);
	c->owned = NULL;
	return slt_error_set(err, SLT_ECORRUPT, e->path, (int64_t)s->offset,
			     "the file is truncated or corrupt",
			     "section %s: bad compressed data", s->name);
}

/* Apply the relocations of rel section r to c (see elf_reloc.h). */
static int relocate_one(struct slt_elf *e, size_t r, struct sec_cache *c,
			struct slt_error *err)
{
	const struct slt_elf_section *rs = &e->sec[r];
	const uint8_t *rel, *sym;
	size_t nrel, nsym;
	int rc = slt_elf_section_data(e, r, &rel, &nrel, err);
	if (rc)
		return rc;
	if (rs->link == 0 || rs->link >= e->nsec ||
	    (e->sec[rs->link].type != SHT_SYMTAB &&
	     e->sec[rs->link].type != SHT_DYNSYM))
		return slt_error_set(err, SLT_ECORRUPT, e->path,
				     (int64_t)rs->offset, NULL,
				     "%s: bad symbol table link", rs->name);
	rc = slt_elf_section_data(e, rs->link, &sym, &nsym, err);
	if (rc)
		return rc;
	struct slt_reloc_sec in = {
		.path = e->path, .name = rs->name, .offset = rs->offset,
		.machine = e->machine, .is64 = e->is64, .le = e->le,
		.rela = rs->type == SHT_RELA, .rel = rel, .nrel = nrel,
		.sym = sym, .nsym = nsym,
	};
	return slt_elf_apply_relocs(&in, c->owned, c->size, err);
}

static int relocate(struct slt_elf *e, size_t idx, struct sec_cache *c,
		    struct slt_error *err)
{
	for (size_t r = 1; r < e->nsec; r++) {
		const struct slt_elf_section *rs = &e->sec[r];
		if ((rs->type != SHT_RELA && rs->type != SHT_REL) ||
		    rs->info != idx || r == idx)
			continue;
		if (!c->owned) {
			int rc = own_copy(e, c, err);
			if (rc)
				return rc;
		}
		int rc = relocate_one(e, r, c, err);
		if (rc)
			return rc;
	}
	return 0;
}

int slt_elf_section_data(struct slt_elf *e, size_t idx, const uint8_t **data,
			 size_t *size, struct slt_error *err)
{
	*data = NULL;
	*size = 0;
	if (idx == 0 || idx >= e->nsec)
		return slt_error_set(err, SLT_ECORRUPT, e->path, -1, NULL,
				     "section index %zu out of range", idx);
	struct sec_cache *c = &e->cache[idx];
	if (!c->loaded && c->busy) /* found by fuzz_dwarf */
		return slt_error_set(err, SLT_ECORRUPT, e->path,
				     (int64_t)e->sec[idx].offset,
				     "the file is truncated or corrupt",
				     "section %s: relocations that depend on "
				     "the section itself", e->sec[idx].name);
	if (!c->loaded) {
		const uint8_t *p;
		size_t n;
		c->busy = true;
		int rc = raw_bytes(e, idx, &p, &n, err);
		if (rc == 0 && n && slt_elf_section_compressed(e, idx))
			rc = decompress(e, idx, p, n, c, err);
		else {
			c->data = p;
			c->size = n;
		}
		/* the last section of an image: copied, for the guard byte */
		if (rc == 0 && !c->owned && c->size &&
		    c->data + c->size == e->image + e->image_size)
			rc = own_copy(e, c, err);
		const struct slt_elf_section *s = &e->sec[idx];
		if (rc == 0 && e->type == ET_REL && c->size &&
		    s->type != SHT_RELA && s->type != SHT_REL &&
		    !(s->flags & SHF_ALLOC))
			rc = relocate(e, idx, c, err);
		c->busy = false;
		if (rc) {
			free(c->owned);
			memset(c, 0, sizeof(*c));
			return rc;
		}
		c->loaded = true;
	}
	*data = c->data;
	*size = c->size;
	return 0;
}

int slt_elf_notes_build_id(const uint8_t *p, size_t n, bool le, const uint8_t **id,
			   size_t *len)
{
	size_t off = 0;
	while (n - off >= 12) {
		uint32_t namesz = rd32(p + off, le);
		uint32_t descsz = rd32(p + off + 4, le);
		uint32_t type = rd32(p + off + 8, le);
		size_t nalign = ((size_t)namesz + 3) & ~(size_t)3;
		size_t dalign = ((size_t)descsz + 3) & ~(size_t)3;
		off += 12;
		if (nalign > n - off || dalign > n - off - nalign)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 &&
		    memcmp(p + off, "GNU", 4) == 0 && descsz > 0) {
			*id = p + off + nalign;
			*len = descsz;
			return 0;
		}
		off += nalign + dalign;
	}
	return SLT_ENOTFOUND;
}

int slt_elf_build_id(struct slt_elf *e, const uint8_t **id, size_t *len)
{
	for (size_t i = 1; i < e->nsec; i++) {
		if (e->sec[i].type != SHT_NOTE)
			continue;
		const uint8_t *p;
		size_t n;
		if (slt_elf_section_data(e, i, &p, &n, NULL))
			continue;
		if (!slt_elf_notes_build_id(p, n, e->le, id, len))
			return 0;
	}
	return SLT_ENOTFOUND;
}

int slt_elf_debuglink(struct slt_elf *e, const char **name, uint32_t *crc)
{
	size_t i = slt_elf_find_section(e, ".gnu_debuglink");
	const uint8_t *p;
	size_t n;
	if (!i || slt_elf_section_data(e, i, &p, &n, NULL) || !n)
		return SLT_ENOTFOUND;
	const uint8_t *nul = memchr(p, 0, n);
	if (!nul || nul == p)
		return SLT_ENOTFOUND;
	/* a file name, as objcopy --add-gnu-debuglink stores it: a path
	 * ("../../dev/zero") would lead the lookup out of the debug
	 * directories, to files that never end or block */
	if (memchr(p, '/', (size_t)(nul - p)) || !strcmp((const char *)p, ".") ||
	    !strcmp((const char *)p, ".."))
		return SLT_ENOTFOUND;
	size_t crc_off = ((size_t)(nul - p) + 1 + 3) & ~(size_t)3;
	if (crc_off + 4 > n)
		return SLT_ENOTFOUND;
	*name = (const char *)p;
	*crc = rd32(p + crc_off, e->le);
	return 0;
}

int slt_elf_file_crc32(const char *path, uint32_t *crc)
{
	/* regular files only: a FIFO or device would block or never end */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return SLT_EIO;
	struct stat st;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return SLT_EIO;
	}
	uLong c = crc32(0L, Z_NULL, 0);
	static const size_t chunk = 1u << 20;
	unsigned char *buf = malloc(chunk);
	int rc = buf ? 0 : SLT_ENOMEM;
	while (!rc) {
		ssize_t r = read(fd, buf, chunk);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			rc = SLT_EIO;
		if (r <= 0)
			break;
		c = crc32(c, buf, (uInt)r);
	}
	free(buf);
	close(fd);
	*crc = (uint32_t)c;
	return rc;
}

static bool same_file(const struct stat *a, const char *path)
{
	struct stat b;
	return stat(path, &b) == 0 && a->st_dev == b.st_dev &&
	       a->st_ino == b.st_ino;
}

static bool usable(const char *cand, const struct stat *self)
{
	struct stat st;
	return stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
	       !(self && same_file(self, cand));
}

int slt_elf_find_debug_file(struct slt_elf *e, const char *path,
			    const char *debug_root, char **out)
{
	*out = NULL;
	if (!debug_root)
		debug_root = "/usr/lib/debug";
	struct stat self_st, *self = stat(path, &self_st) == 0 ? &self_st : NULL;
	char buf[PATH_MAX];
	const uint8_t *id;
	size_t idlen;
	if (slt_elf_build_id(e, &id, &idlen) == 0 && idlen >= 2 &&
	    idlen <= 64) {
		int k = snprintf(buf, sizeof(buf), "%s/.build-id/%02x/",
				 debug_root, id[0]);
		for (size_t i = 1; i < idlen && k > 0 && k < (int)sizeof(buf) - 3;
		     i++)
			k += snprintf(buf + k, sizeof(buf) - (size_t)k, "%02x",
				      id[i]);
		if (k > 0 && k < (int)sizeof(buf) - 7) {
			strcat(buf, ".debug");
			if (usable(buf, self))
				return (*out = strdup(buf)) ? 0 : SLT_ENOMEM;
		}
	}
	const char *link;
	uint32_t want;
	if (slt_elf_debuglink(e, &link, &want) != 0 || strchr(link, '/'))
		return SLT_ENOTFOUND;
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	char absdir[PATH_MAX];
	const char *adir = realpath(dir, absdir) ? absdir : dir;
	const char *fmt[3] = { "%s/%s", "%s/.debug/%s", "%s%s/%s" };
	for (int i = 0; i < 3; i++) {
		int k = i < 2 ? snprintf(buf, sizeof(buf), fmt[i], dir, link)
			      : snprintf(buf, sizeof(buf), fmt[i], debug_root,
					 adir, link);
		if (k <= 0 || k >= (int)sizeof(buf) || !usable(buf, self))
			continue;
		uint32_t got;
		if (slt_elf_file_crc32(buf, &got) == 0 && got == want)
			return (*out = strdup(buf)) ? 0 : SLT_ENOMEM;
	}
	return SLT_ENOTFOUND;
}

/* One symbol-table entry, read per the ELF gABI layout (Elf32_Sym /
 * Elf64_Sym): name offset, type, value, size. */
static void read_sym(const struct slt_elf *e, const uint8_t *p,
		     uint32_t *name, unsigned *type, uint64_t *value,
		     uint64_t *size)
{
	*name = rd32(p, e->le);
	if (e->is64) {
		*type = p[4] & 0xf;
		*value = rd64(p + 8, e->le);
		*size = rd64(p + 16, e->le);
	} else {
		*value = rd32(p + 4, e->le);
		*size = rd32(p + 8, e->le);
		*type = p[12] & 0xf;
	}
}

int slt_elf_symbol(struct slt_elf *e, const char *name, uint64_t *addr,
		   uint64_t *size, struct slt_error *err)
{
	const uint32_t kinds[2] = { SHT_SYMTAB, SHT_DYNSYM };
	size_t ssz = e->is64 ? 24 : 16, nlen = strlen(name);
	for (int k = 0; k < 2; k++) {
		for (size_t i = 1; i < e->nsec; i++) {
			const struct slt_elf_section *s = &e->sec[i];
			if (s->type != kinds[k])
				continue;
			const uint8_t *sym, *str;
			size_t nsym, nstr;
			if (s->link == 0 || s->link >= e->nsec ||
			    e->sec[s->link].type != SHT_STRTAB)
				return slt_error_set(err, SLT_ECORRUPT, e->path,
						     (int64_t)s->offset, NULL,
						     "%s: bad string table link",
						     s->name);
			int rc = slt_elf_section_data(e, i, &sym, &nsym, err);
			if (!rc)
				rc = slt_elf_section_data(e, s->link, &str,
							  &nstr, err);
			if (rc)
				return rc;
			for (size_t off = ssz; off + ssz <= nsym; off += ssz) {
				uint32_t no;
				unsigned type;
				uint64_t v, sz;
				read_sym(e, sym + off, &no, &type, &v, &sz);
				if ((type != STT_OBJECT && type != STT_TLS &&
				     type != STT_NOTYPE) ||
				    no >= nstr || nstr - no <= nlen ||
				    memcmp(str + no, name, nlen + 1) != 0)
					continue;
				*addr = v;
				*size = sz;
				return 0;
			}
		}
	}
	return slt_error_set(err, SLT_ENOTFOUND, e->path, -1,
			     "give the instance address with --base 0x... "
			     "(e.g. from /proc/kallsyms) or use --line ADDR=N",
			     "no data symbol named '%s' in the symbol table",
			     name);
}
