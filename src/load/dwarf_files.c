/* SPDX-License-Identifier: MIT */
/*
 * The file table of a line program header: what DW_AT_decl_file indexes.
 * Read here, bounds-checked, instead of through libdwarf 20210528's
 * dwarf_srcfiles(), which on corrupt headers reads a directory one past its
 * table (a DWARF 5 directory index equal to the directory count), writes
 * paths through static buffers shared by every call, and allocates what a
 * damaged count asks (found by tests/fuzz/fuzz_dwarf and fuzz_access).
 *
 * Format: DWARF 5 section 6.2.4 (version 5: entry formats, then
 * directories and file names described by them) and DWARF 4 section 6.2.4
 * (versions 2-4: include_directories and file_names as NUL-terminated
 * lists).  Names are joined as libdwarf joins them, so decl_file strings
 * (baselines, SARIF) do not change: an absolute file name as is; else
 * directory + name when the directory is absolute; else comp_dir +
 * directory + name, '/' between parts that lack one.
 */
#include <stdlib.h>
#include <string.h>

#include "load/dwarf_files.h"

#include "common/bytes.h"

/* A NUL-terminated string in the header; NULL (and r->bad) if unterminated. */
static const char *cstr(struct slt_bytes *r)
{
	if (r->bad)
		return NULL;
	const uint8_t *z = memchr(r->p + r->at, 0, r->end - r->at);
	if (!z) {
		r->bad = true;
		return NULL;
	}
	const char *s = (const char *)r->p + r->at;
	r->at = (size_t)(z - r->p) + 1;
	return s;
}

/* A string at offset off of a string section, or NULL. */
static const char *sec_str(const uint8_t *s, size_t n, uint64_t off)
{
	if (!s || off >= n || !memchr(s + off, 0, n - off))
		return NULL;
	return (const char *)s + off;
}

enum { LNCT_path = 1, LNCT_directory_index = 2 };

/* One DWARF 5 entry described by fmt[0..nf) (content type, form pairs):
 * its path (NULL if absent or in a form not read here) and directory
 * index.  False on a form this reader cannot skip or a short header. */
static bool entry5(struct slt_bytes *r, const uint64_t *fmt, unsigned nf, unsigned osz,
		   const struct slt_dw_strs *st, const char **path, uint64_t *dir)
{
	*path = NULL;
	*dir = 0;
	for (unsigned i = 0; i < nf; i++) {
		uint64_t ct = fmt[2 * i], form = fmt[2 * i + 1], v = 0;
		const char *s = NULL;
		switch (form) {
		case 0x08: s = cstr(r); break;                    /* string */
		case 0x1f: s = sec_str(st->lstr, st->lstr_n, slt_bytes_fixed(r, osz)); break;
		case 0x0e: s = sec_str(st->str, st->str_n, slt_bytes_fixed(r, osz)); break;
		case 0x0b: v = slt_bytes_fixed(r, 1); break;                /* data1 */
		case 0x05: v = slt_bytes_fixed(r, 2); break;                /* data2 */
		case 0x06: v = slt_bytes_fixed(r, 4); break;                /* data4 */
		case 0x07: v = slt_bytes_fixed(r, 8); break;                /* data8 */
		case 0x1e: slt_bytes_fixed(r, 8), slt_bytes_fixed(r, 8); break;       /* data16 */
		case 0x0f: v = slt_bytes_uleb(r); break;                    /* udata */
		case 0x0d: slt_bytes_uleb(r); break;                        /* sdata */
		case 0x09: {                                      /* block */
			slt_bytes_skip(r, slt_bytes_uleb(r));
			break;
		}
		case 0x1a: slt_bytes_uleb(r); break;                 /* strx: not read */
		case 0x25: slt_bytes_fixed(r, 1); break;             /* strx1 */
		case 0x26: slt_bytes_fixed(r, 2); break;             /* strx2 */
		case 0x27: slt_bytes_fixed(r, 3); break;             /* strx3 */
		case 0x28: slt_bytes_fixed(r, 4); break;             /* strx4 */
		default:
			return false;
		}
		if (r->bad)
			return false;
		if (ct == LNCT_path)
			*path = s;
		else if (ct == LNCT_directory_index)
			*dir = v;
	}
	return true;
}

static bool absolute(const char *s)
{
	return s[0] == '/' ||
	       (((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z')) &&
		s[1] == ':');
}

/* Append part to the path in b (capacity checked by the caller's sizing):
 * '/' between when neither side has one, one '/' dropped when both do. */
static size_t join(char *b, size_t len, const char *part)
{
	if (!*part)
		return len;
	if (len) {
		if (b[len - 1] != '/' && *part != '/')
			b[len++] = '/';
		else if (b[len - 1] == '/' && *part == '/')
			part++;
	}
	size_t k = strlen(part);
	memcpy(b + len, part, k);
	return len + k;
}

/* Room for the joined names, filled in a second pass. */
struct out {
	const char **dirs;
	size_t ndirs;
	const char *comp_dir;
	char **names;
	size_t n, cap;
};

static bool add(struct out *o, const char *name, uint64_t dir, bool v5)
{
	if (o->n == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 16;
		char **nn = realloc(o->names, cap * sizeof(*nn));
		if (!nn)
			return false;
		o->names = nn;
		o->cap = cap;
	}
	if (!name) { /* a path in a form not read here: unknown */
		o->names[o->n++] = NULL;
		return true;
	}
	const char *inc = "";
	if (!absolute(name)) {
		if (v5 || dir > 0) {
			uint64_t k = v5 ? dir : dir - 1;
			if (k >= o->ndirs)
				return false;
			inc = o->dirs[k] ? o->dirs[k] : "";
		}
	}
	const char *cd = absolute(name) || (*inc && absolute(inc)) ? ""
			 : o->comp_dir ? o->comp_dir : "";
	char *b = malloc(strlen(cd) + strlen(inc) + strlen(name) + 3);
	if (!b)
		return false;
	size_t len = join(b, 0, cd);
	len = join(b, len, inc);
	len = join(b, len, name);
	b[len] = 0;
	o->names[o->n++] = b;
	return true;
}

int slt_dw_line_files(const uint8_t *p, size_t n, uint64_t off, bool le,
		      const char *comp_dir, const struct slt_dw_strs *st,
		      struct slt_dw_files *out)
{
	memset(out, 0, sizeof(*out));
	if (!p || off >= n)
		return -1;
	struct slt_bytes r = { .p = p, .end = n, .at = (size_t)off, .le = le };
	unsigned osz;
	uint64_t len = slt_bytes_unit_length(&r, &osz);
	if (r.bad)
		return -1;
	r.end = r.at + (size_t)len; /* the unit */
	unsigned ver = (unsigned)slt_bytes_fixed(&r, 2);
	if (ver < 2 || ver > 5)
		return -1;
	if (ver >= 5)
		slt_bytes_fixed(&r, 2); /* address_size, segment_selector_size */
	uint64_t hlen = slt_bytes_fixed(&r, osz);
	if (r.bad || hlen > r.end - r.at)
		return -1;
	r.end = r.at + (size_t)hlen; /* the header */
	slt_bytes_fixed(&r, ver >= 4 ? 5 : 4); /* min_inst .. line_range */
	unsigned obase = (unsigned)slt_bytes_fixed(&r, 1);
	if (r.bad || (obase && obase - 1 > r.end - r.at))
		return -1;
	r.at += obase ? obase - 1 : 0; /* standard_opcode_lengths */

	struct out o = { .comp_dir = comp_dir };
	size_t dcap = 0;
	bool ok = true;
	if (ver < 5) {
		for (const char *s; ok && (s = cstr(&r)) && *s;) {
			if (o.ndirs == dcap) {
				dcap = dcap ? 2 * dcap : 16;
				const char **nd = realloc(o.dirs, dcap * sizeof(*nd));
				ok = nd != NULL;
				if (ok)
					o.dirs = nd;
			}
			if (ok)
				o.dirs[o.ndirs++] = s;
		}
		ok = ok && !r.bad;
		for (const char *s; ok && (s = cstr(&r)) && *s;) {
			uint64_t dir = slt_bytes_uleb(&r);
			slt_bytes_uleb(&r), slt_bytes_uleb(&r); /* mtime, length */
			ok = !r.bad && add(&o, s, dir, false);
		}
		ok = ok && !r.bad;
	} else {
		for (int pass = 0; pass < 2 && ok; pass++) {
			unsigned nf = (unsigned)slt_bytes_fixed(&r, 1);
			uint64_t fmt[2 * 255];
			for (unsigned i = 0; i < 2 * nf && !r.bad; i++)
				fmt[i] = slt_bytes_uleb(&r);
			uint64_t cnt = slt_bytes_uleb(&r);
			/* every entry takes at least one byte when it has a
			 * format; none may be claimed beyond the header */
			if (r.bad || (nf && cnt > r.end - r.at) || (!nf && cnt)) {
				ok = false;
				break;
			}
			if (pass == 0 && cnt) {
				o.dirs = calloc((size_t)cnt, sizeof(*o.dirs));
				ok = o.dirs != NULL;
			}
			for (uint64_t i = 0; ok && i < cnt; i++) {
				const char *path;
				uint64_t dir;
				ok = entry5(&r, fmt, nf, osz, st, &path, &dir);
				if (!ok)
					break;
				if (pass == 0)
					o.dirs[o.ndirs++] = path;
				else
					ok = add(&o, path, dir, true);
			}
		}
	}
	free(o.dirs);
	if (!ok) {
		for (size_t i = 0; i < o.n; i++)
			free(o.names[i]);
		free(o.names);
		return -1;
	}
	out->names = o.names;
	out->n = o.n;
	out->version = ver;
	return 0;
}

void slt_dw_files_clear(struct slt_dw_files *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->names[i]);
	free(f->names);
	memset(f, 0, sizeof(*f));
}

const char *slt_dw_file_name(const struct slt_dw_files *f, uint64_t idx)
{
	if (f->version < 5) {
		if (idx == 0)
			return NULL;
		idx--;
	}
	return idx < f->n ? f->names[idx] : NULL;
}
