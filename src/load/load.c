/* SPDX-License-Identifier: MIT */
/*
 * slt_layout_load() and slt_layout_list(): pick the input format, drive a
 * source (src/load/source.h) and turn what it finds into layouts
 * (src/layout/build.h), showing each distinct definition once.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/grow.h"
#include "common/arena.h"
#include "structlint/cache.h"
#include "layout/build.h"
#include "load/elf.h"
#include "load/source.h"
#include "common/sort.h"

#define NOT_ELF_HINT                                                          \
	"give an ELF file built with -g (or its -dbg package's debug file) "  \
	"or a raw BTF file such as /sys/kernel/btf/vmlinux"

static const char *kernel_btf_hint =
	"no file given, so the running kernel's BTF was read; it needs "
	"CONFIG_DEBUG_INFO_BTF=y, or pass a vmlinux with DWARF from the "
	"linux-image-*-dbg package";

/* Check that path is a readable regular file (or a sysfs BTF file). */
static int check_file(const char *path, const char *hint,
		      struct slt_error *err)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return slt_error_set(err, SLT_EIO, path, -1,
				     hint ? hint : "check the path",
				     "cannot open: %s", strerror(errno));
	if (S_ISDIR(st.st_mode))
		return slt_error_set(err, SLT_EIO, path, -1,
				     "give an ELF file or a raw BTF file",
				     "is a directory");
	/* the input is opened more than once (probe, then ELF or BTF):
	 * a pipe would lose its first bytes or block, a device never ends */
	if (!S_ISREG(st.st_mode))
		return slt_error_set(err, SLT_EIO, path, -1,
				     "save it to a file first: the input is read more than once",
				     "%s, not a regular file", S_ISFIFO(st.st_mode) ? "a pipe" :
				     S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" :
				     S_ISSOCK(st.st_mode) ? "a socket" : "a special file");
	if (access(path, R_OK) != 0)
		return slt_error_set(err, SLT_EIO, path, -1,
				     hint ? hint : "run as a user who can read it",
				     "cannot read: %s", strerror(errno));
	return 0;
}

int slt_source_probe(const char *path, struct slt_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return slt_error_set(err, SLT_EIO, path, -1, NULL, "%s",
				     strerror(errno));
	unsigned char magic[4] = { 0 };
	ssize_t got = read(fd, magic, sizeof(magic));
	close(fd);
	if (got > 0 && slt_btf_magic(magic, (size_t)got))
		return SLT_HAS_BTF;
	if (got <= 0)
		return slt_error_set(err, SLT_ENOTELF, path, 0, NOT_ELF_HINT,
				     "empty file");
	struct slt_elf *e = NULL;
	int rc = slt_elf_open(path, &e, err);
	if (rc == SLT_ENOTELF) {
		slt_error_clear(err);
		return slt_error_set(err, SLT_ENOTELF, path, 0, NOT_ELF_HINT,
				     "neither ELF nor raw BTF");
	}
	if (rc < 0)
		return rc;
	int has = 0;
	if (slt_elf_find_section(e, ".debug_info") ||
	    slt_elf_find_section(e, ".zdebug_info") ||
	    slt_elf_find_section(e, ".debug_info.dwo"))
		has |= SLT_HAS_DWARF;
	if (slt_elf_find_section(e, ".BTF"))
		has |= SLT_HAS_BTF;
	slt_elf_close(e);
	return has;
}

/* The formats to try, in order, for path. */
static int pick_formats(const char *path, const struct slt_load_opts *opts,
			enum slt_format fmts[2], size_t *n,
			struct slt_error *err)
{
	if (opts && opts->n_formats) {
		*n = opts->n_formats > 2 ? 2 : opts->n_formats;
		memcpy(fmts, opts->formats, *n * sizeof(fmts[0]));
		return 0;
	}
	int has = slt_source_probe(path, err);
	if (has < 0)
		return has;
	/*
	 * Default: DWARF first.  It carries what BTF does not (declaration
	 * file and line, DW_AT_alignment, every distinct definition of a
	 * name); when the file has no DWARF, a separate debug file may still
	 * be found through build-id/debuglink, and BTF is the fallback.
	 */
	*n = 0;
	if (has & SLT_HAS_DWARF) {
		fmts[(*n)++] = SLT_FORMAT_DWARF;
		if (has & SLT_HAS_BTF)
			fmts[(*n)++] = SLT_FORMAT_BTF;
	} else if (has & SLT_HAS_BTF) {
		fmts[(*n)++] = SLT_FORMAT_BTF;
		fmts[(*n)++] = SLT_FORMAT_DWARF;
	} else {
		fmts[(*n)++] = SLT_FORMAT_DWARF; /* separate debug file? */
	}
	return 0;
}

static int open_one(enum slt_format f, const char *path,
		    const struct slt_load_opts *opts, struct slt_source **src,
		    struct slt_error *err)
{
	switch (f) {
	case SLT_FORMAT_DWARF:
		return slt_source_open_dwarf(path, opts, src, err);
	case SLT_FORMAT_BTF:
		return slt_source_open_btf(path, opts, src, err);
	default:
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "use dwarf or btf", "unknown format");
	}
}

/*
 * Open the first format of the list that the file has.  Only "this file has
 * no such debug info" moves on to the next format; a corrupt section is
 * reported as it is, so bad input is never hidden by a fallback.
 */
static int open_source(const char *path, const struct slt_load_opts *opts,
		       struct slt_source **src, struct slt_error *err)
{
	enum slt_format fmts[2];
	size_t n = 0;
	int rc = pick_formats(path, opts, fmts, &n, err);
	if (rc < 0)
		return rc;
	struct slt_error first;
	slt_error_clear(&first);
	for (size_t i = 0; i < n; i++) {
		struct slt_error e;
		slt_error_clear(&e);
		rc = open_one(fmts[i], path, opts, src, &e);
		if (rc == 0)
			return 0;
		if (first.code == 0)
			first = e;
		if (rc != SLT_ENODEBUG)
			break;
	}
	if (err && err->code == 0)
		*err = first;
	return first.code ? first.code : rc;
}

/*
 * The input both entry points read: path, or the running kernel's BTF when
 * path is NULL (*path is set to what is read), checked and opened.
 */
static int open_input(const char **path, const struct slt_load_opts *opts,
		      struct slt_source **src, struct slt_error *err)
{
	const char *hint = NULL;
	if (!*path) {
		*path = SLT_KERNEL_BTF_PATH;
		hint = kernel_btf_hint;
	}
	int rc = check_file(*path, hint, err);
	return rc < 0 ? rc : open_source(*path, opts, src, err);
}

static int not_found(struct slt_source *src, const char *name,
		     struct slt_error *err)
{
	char **names = NULL;
	int n = src->ops->suggest(src, name, 5, &names, NULL);
	char hint[400] = "";
	size_t len = 0;
	if (n > 0) {
		len += (size_t)snprintf(hint, sizeof(hint), "did you mean");
		for (int i = 0; i < n && len < sizeof(hint); i++)
			len += (size_t)snprintf(hint + len, sizeof(hint) - len,
						"%s %s", i ? "," : "", names[i]);
		if (len < sizeof(hint))
			snprintf(hint + len, sizeof(hint) - len,
				 "? `structlint --list 'PATTERN' FILE` lists "
				 "the types");
	} else {
		snprintf(hint, sizeof(hint),
			 "`structlint --list 'PATTERN' FILE` lists the types");
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return slt_error_set(err, SLT_ENOTFOUND, src->path, -1, hint,
			     "no struct or union named '%s' (format %s)", name,
			     slt_format_name(src->format));
}

struct builder {
	struct slt_arena *arena;
	struct slt_struct *v;
	size_t n, cap;
};

static int add_struct(struct builder *b, const struct slt_struct *s)
{
	if (slt_grow((void **)&b->v, &b->cap, b->n + 1, sizeof(*b->v), 8))
		return SLT_ENOMEM;
	b->v[b->n++] = *s;
	return 0;
}

/* Build name's defs[0, n_defs) into b, each distinct layout once, and
 * tell the source which ones were (ops->distinct). */
static int add_defs(struct slt_source *src, const char *name,
		    struct slt_type **defs, size_t n_defs,
		    const struct slt_load_opts *opts,
		    struct builder *b, struct slt_error *err)
{
	size_t first = b->n;
	bool *keep = src->ops->distinct ? calloc(n_defs ? n_defs : 1, 1) : NULL;
	int rc = 0;
	for (size_t i = 0; i < n_defs && rc == 0; i++) {
		struct slt_struct s;
		rc = slt_build_struct(b->arena, defs[i], src->format,
				      opts && opts->expand, src->path, &s, err);
		if (rc < 0)
			break;
		bool dup = false;
		for (size_t j = first; j < b->n && !dup; j++)
			dup = slt_struct_same(&b->v[j], &s);
		if (!dup)
			rc = add_struct(b, &s);
		if (keep)
			keep[i] = !dup;
	}
	if (rc == 0 && keep && n_defs)
		src->ops->distinct(src, name, keep, n_defs);
	free(keep);
	if (rc == SLT_ENOMEM)
		slt_error_set(err, rc, src->path, -1, NULL, "out of memory");
	return rc;
}

static int load_name(struct slt_source *src, const char *name,
		     const struct slt_load_opts *opts, struct builder *b,
		     struct slt_error *err)
{
	struct slt_type **defs = NULL;
	size_t n_defs = 0;
	int rc = src->ops->find(src, name, &defs, &n_defs, err);
	if (rc == SLT_ENOTFOUND) {
		slt_error_clear(err);
		return not_found(src, name, err);
	}
	if (rc == 0)
		rc = add_defs(src, name, defs, n_defs, opts, b, err);
	free(defs);
	return rc;
}

/* Every name through find_many(): one pass over the input. */
static int load_names(struct slt_source *src, const char *const *names,
		      size_t n, const struct slt_load_opts *opts,
		      struct builder *b, struct slt_error *err)
{
	if (!src->ops->find_many) {
		int rc = 0;
		for (size_t i = 0; i < n && rc == 0; i++)
			rc = load_name(src, names[i], opts, b, err);
		return rc;
	}
	struct slt_found *f = calloc(n, sizeof(*f));
	if (!f)
		return slt_error_set(err, SLT_ENOMEM, src->path, -1, NULL,
				     "out of memory");
	int rc = src->ops->find_many(src, names, n, f, err);
	size_t miss = 0;
	while (rc < 0 && miss < n && f[miss].rc == 0)
		miss++;
	if (rc == SLT_ENOTFOUND && miss < n && f[miss].rc == SLT_ENOTFOUND) {
		slt_error_clear(err);
		rc = not_found(src, names[miss], err);
	}
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = add_defs(src, names[i], f[i].defs, f[i].n, opts,
			      b, err);
	for (size_t i = 0; i < n; i++)
		free(f[i].defs);
	free(f);
	return rc;
}

/* The layout of b's structs, read from src: *out, b's arena moved in. */
static int finish(struct builder *b, struct slt_source *src,
		  struct slt_layout **out)
{
	struct slt_layout *l = slt_arena_alloc(b->arena, sizeof(*l));
	struct slt_struct *v = l ? slt_arena_calloc(b->arena, b->n, sizeof(*v))
				 : NULL;
	const char *p = l ? slt_arena_strdup(b->arena, src->path) : NULL;
	if (!l || (b->n && !v) || !p)
		return SLT_ENOMEM;
	if (b->n)
		memcpy(v, b->v, b->n * sizeof(*v));
	l->structs = v;
	l->n_structs = b->n;
	l->path = p;
	l->format = src->format;
	l->priv_ = b->arena;
	b->arena = NULL;
	*out = l;
	return 0;
}

int slt_layout_load(const char *path, const char *const *names,
		    size_t n_names, const struct slt_load_opts *opts,
		    struct slt_layout **out, struct slt_error *err)
{
	*out = NULL;
	if (n_names == 0)
		return slt_error_set(err, SLT_EUSAGE, NULL, -1,
				     "name at least one struct or union",
				     "no type name given");
	struct slt_source *src = NULL;
	int rc = open_input(&path, opts, &src, err);
	if (rc < 0)
		return rc;
	struct builder b = { .arena = slt_arena_new() };
	rc = b.arena ? load_names(src, names, n_names, opts, &b, err)
		     : SLT_ENOMEM;
	if (rc == 0)
		rc = finish(&b, src, out);
	if (rc == SLT_ENOMEM)
		slt_error_set(err, rc, path, -1, NULL, "out of memory");
	free(b.v);
	slt_arena_free(b.arena);
	src->ops->close(src);
	return rc;
}

struct all_ctx {
	struct slt_source *src;
	const struct slt_load_opts *opts;
	struct builder *b;
	struct slt_error *err;
	/* the generic route: every definition list() gives */
	const char **names;
	uint64_t *origin;
	size_t n, cap;
	struct slt_arena *na;
};

static int all_cb(void *ctx, const struct slt_type *t)
{
	struct all_ctx *a = ctx;
	struct slt_struct s;
	int rc = slt_build_struct(a->b->arena, t, a->src->format,
				  a->opts && a->opts->expand, a->src->path, &s,
				  a->err);
	return rc < 0 ? rc : add_struct(a->b, &s);
}

static int all_name_cb(void *ctx, const struct slt_type *t)
{
	struct all_ctx *a = ctx;
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 256;
		const char **v = realloc(a->names, cap * sizeof(*v));
		if (v)
			a->names = v;
		uint64_t *o = v ? realloc(a->origin, cap * sizeof(*o)) : NULL;
		if (!o)
			return SLT_ENOMEM;
		a->origin = o;
		a->cap = cap;
	}
	a->origin[a->n] = t->origin;
	if (!(a->names[a->n++] = slt_arena_strdup(a->na, t->name)))
		return SLT_ENOMEM;
	return 0;
}

/* Name order, ties by position. */
static int cmp_at(const void *x, const void *y, void *ctx)
{
	const char *const *names = ctx;
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int c = strcmp(names[i], names[j]);
	return c ? c : (i > j) - (i < j);
}

/* pahole 1.24's type__compare() key, but for the name: size, number of
 * members, each member's name, bit offset and bit-field size. */
static uint64_t pahole_key(const struct slt_type *t)
{
	uint64_t v[3] = { t->size, t->n_members, 0 };
	uint64_t h = slt_cache_checksum(v, 2 * sizeof(v[0]));
	for (uint32_t i = 0; i < t->n_members; i++) {
		const struct slt_tmember *m = &t->members[i];
		const char *nm = m->name ? m->name : "";
		v[0] = m->bit_offset;
		v[1] = m->bit_size;
		v[2] = h;
		h = slt_cache_checksum(v, sizeof(v)) ^
		    slt_cache_checksum(nm, strlen(nm) + 1);
	}
	return h;
}

/* Sources without all(): every definition list() gives, in its order
 * (BTF: type id order), each (name, pahole key) once. */
static int all_generic(struct all_ctx *a)
{
	int rc = a->src->ops->list(a->src, all_name_cb, a, a->err);
	size_t *ord = rc ? NULL : malloc((a->n ? a->n : 1) * sizeof(*ord));
	const struct slt_type **pick =
		ord ? calloc(a->n ? a->n : 1, sizeof(*pick)) : NULL;
	uint64_t *keys = pick ? malloc((a->n ? a->n : 1) * sizeof(*keys)) : NULL;
	if (!rc && !keys)
		rc = SLT_ENOMEM;
	for (size_t i = 0; i < a->n && !rc; i++)
		ord[i] = i;
	if (!rc)
		qsort_r(ord, a->n, sizeof(*ord), cmp_at, a->names);
	/* per name: its definitions once, matched to list() entries by
	 * origin; a definition is picked when no earlier entry of the name
	 * had its key */
	for (size_t k = 0; k < a->n && !rc;) {
		size_t e = k + 1;
		while (e < a->n && !strcmp(a->names[ord[e]], a->names[ord[k]]))
			e++;
		struct slt_type **defs = NULL;
		size_t n_defs = 0;
		rc = a->src->ops->find(a->src, a->names[ord[k]], &defs, &n_defs,
				       a->err);
		for (size_t x = k; x < e && !rc; x++) {
			size_t i = ord[x];
			const struct slt_type *t = NULL;
			for (size_t j = 0; j < n_defs && !t; j++)
				if (defs[j]->origin == a->origin[i])
					t = defs[j];
			if (!t)
				continue;
			keys[i] = pahole_key(t);
			bool dup = false;
			for (size_t y = k; y < x && !dup; y++)
				dup = pick[ord[y]] && keys[ord[y]] == keys[i];
			if (!dup)
				pick[i] = t;
		}
		free(defs);
		k = e;
	}
	for (size_t i = 0; i < a->n && !rc; i++)
		if (pick[i])
			rc = all_cb(a, pick[i]);
	free(ord);
	free(pick);
	free(keys);
	return rc;
}

int slt_layout_load_all(const char *path, const struct slt_load_opts *opts,
			struct slt_layout **out, struct slt_error *err)
{
	*out = NULL;
	struct slt_source *src = NULL;
	int rc = open_input(&path, opts, &src, err);
	if (rc < 0)
		return rc;
	struct builder b = { .arena = slt_arena_new() };
	struct all_ctx a = { .src = src, .opts = opts, .b = &b, .err = err,
			     .na = slt_arena_new() };
	if (!b.arena || !a.na)
		rc = SLT_ENOMEM;
	else if (src->ops->all)
		rc = src->ops->all(src, all_cb, &a, err);
	else
		rc = all_generic(&a);
	if (rc == 0)
		rc = finish(&b, src, out);
	if (rc == SLT_ENOMEM)
		slt_error_set(err, rc, path, -1, NULL, "out of memory");
	free(a.names);
	free(a.origin);
	slt_arena_free(a.na);
	free(b.v);
	slt_arena_free(b.arena);
	src->ops->close(src);
	return rc;
}

void slt_layout_free(struct slt_layout *layout)
{
	if (layout)
		slt_arena_free(layout->priv_);
}

struct lister {
	const char *pattern;
	struct slt_arena *arena;
	struct slt_type_info *v;
	size_t n, cap;
};

static int list_cb(void *ctx, const struct slt_type *t)
{
	struct lister *l = ctx;
	if (!t->name || !t->name[0])
		return 0;
	if (l->pattern && fnmatch(l->pattern, t->name, 0) != 0)
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct slt_type_info *v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return SLT_ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	struct slt_type_info *e = &l->v[l->n];
	e->name = slt_arena_strdup(l->arena, t->name);
	e->kind = t->kind == SLT_T_UNION ? SLT_KIND_UNION : SLT_KIND_STRUCT;
	e->size = t->size;
	e->decl_file = slt_arena_strdup(l->arena,
					t->decl_file ? t->decl_file : "");
	e->decl_line = t->decl_line;
	if (!e->name || !e->decl_file)
		return SLT_ENOMEM;
	l->n++;
	return 0;
}

static int info_cmp(const void *pa, const void *pb)
{
	const struct slt_type_info *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);
	if (c)
		return c;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return 0;
}

int slt_layout_list(const char *path, const char *pattern,
		    const struct slt_load_opts *opts,
		    struct slt_type_list **out, struct slt_error *err)
{
	*out = NULL;
	struct slt_source *src = NULL;
	int rc = open_input(&path, opts, &src, err);
	if (rc < 0)
		return rc;
	struct lister l = { .pattern = pattern, .arena = slt_arena_new() };
	struct slt_type_list *list = NULL;
	if (!l.arena) {
		rc = SLT_ENOMEM;
		goto out;
	}
	rc = src->ops->list(src, list_cb, &l, err);
	if (rc < 0)
		goto out;
	slt_sort(l.v, l.n, sizeof(*l.v), info_cmp);
	/* One entry per distinct (name, kind, size), the first seen. */
	size_t k = 0;
	for (size_t i = 0; i < l.n; i++)
		if (k == 0 || info_cmp(&l.v[k - 1], &l.v[i]) != 0)
			l.v[k++] = l.v[i];
	list = slt_arena_alloc(l.arena, sizeof(*list));
	struct slt_type_info *v = list ? slt_arena_calloc(l.arena, k, sizeof(*v))
				       : NULL;
	if (!list || (k && !v)) {
		rc = SLT_ENOMEM;
		goto out;
	}
	if (k)
		memcpy(v, l.v, k * sizeof(*v));
	list->types = v;
	list->n_types = k;
	list->priv_ = l.arena;
	l.arena = NULL;
	*out = list;
out:
	if (rc == SLT_ENOMEM)
		slt_error_set(err, rc, path, -1, NULL, "out of memory");
	free(l.v);
	slt_arena_free(l.arena);
	src->ops->close(src);
	return rc;
}

void slt_type_list_free(struct slt_type_list *list)
{
	if (list)
		slt_arena_free(list->priv_);
}
