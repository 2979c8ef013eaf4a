/* SPDX-License-Identifier: MIT */
/*
 * The BTF source: reads BTF with libbpf and translates it into the
 * format-neutral type graph of layout/types.h.
 *
 * BTF facts used here (linux Documentation/bpf/btf.rst, libbpf btf.h):
 *  - type id 0 is void; ids run 1 .. btf__type_cnt() - 1 (split BTF of a
 *    module continues the ids of its base, vmlinux);
 *  - struct/union member offsets are in bits; with kind_flag set the
 *    member's offset word holds bitfield_size << 24 | bit_offset
 *    (btf_member_bit_offset()/btf_member_bitfield_size()); without it, a
 *    bitfield is an INT member whose encoding has nr_bits < 8 * size and a
 *    bit offset of its own;
 *  - multi-dimensional arrays are arrays of arrays;
 *  - a FUNC_PROTO whose last parameter is {name 0, type 0} is variadic;
 *  - a FWD with kind_flag set declares a union, otherwise a struct;
 *  - TYPE_TAG is an annotation on a pointee (`__user`, `__rcu`): skipped;
 *  - BTF has no declaration file/line and no alignment attribute: those
 *    stay empty/0 (the layout builder infers forced alignment as pahole
 *    does).
 *
 * libbpf validates the header, string and type sections when parsing (every
 * type fits in the type section, vlen included), but libbpf 1.1 does not
 * check that referenced type ids exist or that references do not loop, so
 * the walk below checks every id, keeps an explicit depth bound and flags
 * a struct that contains itself by value.
 */
#include "load/btf_int.h"
#include "load/elf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#define HINT_NOBTF "the kernel needs CONFIG_DEBUG_INFO_BTF=y"

/* ---- errors -------------------------------------------------------- */

/* A problem with type `id`: the error names the id and the byte offset of
 * its record in the BTF data (the file offset for raw BTF, the offset in
 * the .BTF section for ELF). */
int slt_btf_corrupt(struct btf_src *s, uint32_t id, struct slt_error *err,
		    const char *fmt, ...)
{
	char msg[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);

	bool in_base = s->base_btf && id < s->n_base_types;
	const struct btf *owner = in_base ? s->base_btf : s->btf;
	const char *file = in_base ? s->base_file : s->file;
	const struct btf_type *t = id < s->n_types ? btf__type_by_id(s->btf, id) : NULL;
	uint32_t raw_size = 0;
	const char *raw = t ? btf__raw_data(owner, &raw_size) : NULL;
	int64_t off = -1;
	if (raw && (const char *)t >= raw && (const char *)t < raw + raw_size)
		off = (const char *)t - raw;

	if (off >= 0 && (s->offsets_are_file || in_base))
		return slt_error_set(err, SLT_ECORRUPT, file, off, HINT_CORRUPT,
				     "BTF type [%u]: %s", id, msg);
	if (off >= 0)
		return slt_error_set(err, SLT_ECORRUPT, file, -1, HINT_CORRUPT,
				     "BTF type [%u] (.BTF+0x%llx): %s", id,
				     (unsigned long long)off, msg);
	return slt_error_set(err, SLT_ECORRUPT, file, -1, HINT_CORRUPT,
			     "BTF type [%u]: %s", id, msg);
}

int slt_btf_nomem(struct btf_src *s, struct slt_error *err)
{
	return slt_error_set(err, SLT_ENOMEM, s->file, -1, NULL,
			     "out of memory reading BTF");
}

static void btf_close(struct slt_source *src)
{
	struct btf_src *s = (struct btf_src *)src;
	if (!s)
		return;
	btf__free(s->btf);
	btf__free(s->base_btf);
	slt_arena_free(s->arena);
	free(s->nodes);
	free(s->busy);
	free(s->next);
	free(s->tab);
	free(s->file);
	free(s->base_file);
	free(s);
}

static const struct slt_source_ops btf_ops = {
	.find = slt_btf_find,
	.list = slt_btf_list,
	.suggest = slt_btf_suggest,
	.close = btf_close,
};

/* ---- opening ------------------------------------------------------- */

static int silent_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

/* Wrap a parsed BTF (and its base) in a source; takes ownership of both,
 * also on failure. */
static int make_source(struct btf *btf, struct btf *base, const char *file,
		       const char *base_file, bool offsets_are_file,
		       struct slt_source **out, struct slt_error *err)
{
	/* libbpf 1.1 accepts a header length that leaves the type records
	 * misaligned; every record is a multiple of 4 bytes, so checking the
	 * first one covers all. */
	uint32_t first = base ? btf__type_cnt(base) : 1;
	bool misaligned = first < btf__type_cnt(btf) &&
			  ((uintptr_t)btf__type_by_id(btf, first) & 3);
	struct btf_src *s = misaligned ? NULL : calloc(1, sizeof(*s));
	if (!s) {
		btf__free(btf);
		btf__free(base);
		if (misaligned)
			return slt_error_set(err, SLT_ECORRUPT, file, 4, HINT_CORRUPT,
					     "BTF type section is not 4-byte aligned (header length or type offset)");
		return slt_error_set(err, SLT_ENOMEM, file, -1, NULL,
				     "out of memory reading BTF");
	}
	s->base.ops = &btf_ops;
	s->base.format = SLT_FORMAT_BTF;
	s->btf = btf;
	s->base_btf = base;
	s->offsets_are_file = offsets_are_file;
	s->file = strdup(file);
	s->base_file = base_file ? strdup(base_file) : NULL;
	s->base.path = s->file;
	s->n_types = btf__type_cnt(btf);
	s->n_base_types = base ? btf__type_cnt(base) : 0;
	size_t ps = btf__pointer_size(btf);
	/* 0: no integer type to guess from (hand-made BTF); assume the host */
	s->ptr_size = ps ? (uint32_t)ps : (uint32_t)sizeof(void *);
	s->arena = slt_arena_new();
	s->nodes = calloc(s->n_types, sizeof(*s->nodes));
	s->busy = calloc(s->n_types, 1);
	if (s->arena)
		s->void_node = slt_btf_new_node(s, SLT_T_VOID, 0, "void");
	if (!s->file || (base_file && !s->base_file) || !s->arena ||
	    !s->nodes || !s->busy || !s->void_node) {
		btf_close(&s->base);
		return slt_error_set(err, SLT_ENOMEM, file, -1, NULL,
				     "out of memory reading BTF");
	}
	*out = &s->base;
	return 0;
}

/* Turn a libbpf parse failure (negative errno) into an slt_error. */
static int parse_error(int e, const char *file, bool elf,
		       struct slt_error *err)
{
	char lb[128];
	libbpf_strerror(e, lb, sizeof(lb));
	if (e == -ENOMEM)
		return slt_error_set(err, SLT_ENOMEM, file, -1, NULL,
				     "out of memory reading BTF");
	if (elf && e == -ENOENT)
		return slt_error_set(err, SLT_ENODEBUG, file, -1,
				     "build with pahole -J (CONFIG_DEBUG_INFO_BTF=y for a kernel) or use DWARF",
				     "ELF file has no .BTF section");
	if (!elf && e == -EPROTO)
		return slt_error_set(err, SLT_ENOTELF, file, 0, HINT_NOBTF,
				     "not raw BTF (bad magic)");
	if (e == -EACCES || e == -EPERM || e == -EIO || e == -ENOENT)
		return slt_error_set(err, SLT_EIO, file, -1, NULL,
				     "cannot read BTF: %s", lb);
	return slt_error_set(err, SLT_ECORRUPT, file, -1, HINT_CORRUPT,
			     "malformed BTF: libbpf: %s", lb);
}

bool slt_btf_magic(const unsigned char *p, size_t n)
{
	return n >= 2 && ((p[0] == 0x9f && p[1] == 0xeb) ||
			  (p[0] == 0xeb && p[1] == 0x9f));
}

/*
 * The .BTF section of the ELF file at path, parsed as raw BTF.  The ELF
 * file is read by structlint's own bounds-checked reader (load/elf.c), not
 * by libbpf's btf__parse_elf(): libbpf 1.1 copies a section through a NULL
 * pointer on a hostile ELF (found by tests/fuzz/fuzz_elf).  Returns the
 * BTF, or NULL with *e a negative errno for parse_error(), or NULL with
 * *rc an SLT_E* code already reported in err (the ELF file is damaged).
 */
static struct btf *btf_from_elf(const char *path, int *e, int *rc,
				struct slt_error *err)
{
	struct slt_elf *elf = NULL;
	*e = 0;
	if ((*rc = slt_elf_open(path, &elf, err)) != 0)
		return NULL;
	struct btf *btf = NULL;
	size_t i = slt_elf_find_section(elf, ".BTF");
	const uint8_t *p = NULL;
	size_t n = 0;
	if (!i)
		*e = -ENOENT;
	else if ((*rc = slt_elf_section_data(elf, i, &p, &n, err)) != 0)
		;
	else if (!p || n > UINT32_MAX)
		*rc = slt_error_set(err, SLT_ECORRUPT, path, -1, HINT_CORRUPT,
				    ".BTF section %s", p ? "larger than 4 GiB"
							: "without data");
	else if (!(btf = btf__new(p, (uint32_t)n)))
		*e = errno ? -errno : -EINVAL;
	slt_elf_close(elf);
	return btf;
}

/* The directory of per-module split BTF, based on vmlinux there. */
static bool is_kernel_module_btf(const char *path)
{
	static const char dir[] = "/sys/kernel/btf/";
	if (strncmp(path, dir, sizeof(dir) - 1) != 0)
		return false;
	const char *base = path + sizeof(dir) - 1;
	return base[0] && !strchr(base, '/') && strcmp(base, "vmlinux") != 0;
}

int slt_source_open_btf(const char *path, const struct slt_load_opts *opts,
			struct slt_source **out, struct slt_error *err)
{
	(void)opts;   /* nothing in slt_load_opts applies to BTF */
	*out = NULL;
	if (!path)
		path = SLT_KERNEL_BTF_PATH;
	FILE *f = fopen(path, "rb");
	if (!f) {
		int e = errno;
		return slt_error_set(err, SLT_EIO, path, -1,
				     strcmp(path, SLT_KERNEL_BTF_PATH) == 0 ? HINT_NOBTF : NULL,
				     "cannot open: %s", strerror(e));
	}
	unsigned char magic[4] = {0};
	size_t got = fread(magic, 1, sizeof(magic), f);
	int rerr = ferror(f) ? errno : 0;
	fclose(f);
	if (rerr)
		return slt_error_set(err, SLT_EIO, path, 0, NULL,
				     "cannot read: %s", strerror(rerr));

	bool raw = slt_btf_magic(magic, got);
	bool elf = got == 4 && memcmp(magic, "\177ELF", 4) == 0;
	if (!raw && !elf)
		return slt_error_set(err, SLT_ENOTELF, path, 0,
				     strncmp(path, "/sys/kernel/btf/", 16) == 0 ? HINT_NOBTF :
				     "give an ELF file with a .BTF section or a raw BTF file",
				     got ? "neither an ELF file nor raw BTF" :
					   "empty file: neither an ELF file nor raw BTF");

	if (raw && is_kernel_module_btf(path))
		return slt_source_open_btf_split(path, SLT_KERNEL_BTF_PATH, out, err);
	libbpf_print_fn_t old = libbpf_set_print(silent_print);
	struct btf *btf = NULL;
	int e = 0, rc = 0;
	if (raw) {
		if (!(btf = btf__parse_raw(path)))
			e = errno ? -errno : -EINVAL;
	} else {
		btf = btf_from_elf(path, &e, &rc, err);
	}
	libbpf_set_print(old);
	if (rc)
		return rc;
	if (e)
		return parse_error(e, path, elf, err);
	return make_source(btf, NULL, path, NULL, raw, out, err);
}

int slt_source_open_btf_mem(const void *data, size_t size, const char *name,
			    struct slt_source **out, struct slt_error *err)
{
	*out = NULL;
	if (!name)
		name = "<memory>";
	if (size > UINT32_MAX)
		return slt_error_set(err, SLT_ECORRUPT, name, -1, HINT_CORRUPT,
				     "BTF larger than 4 GiB");
	if (!slt_btf_magic(data, size))
		return slt_error_set(err, SLT_ENOTELF, name, 0, NULL,
				     "not raw BTF (bad magic)");
	libbpf_print_fn_t old = libbpf_set_print(silent_print);
	struct btf *btf = btf__new(data, (uint32_t)size);
	int e = btf ? 0 : (errno ? -errno : -EINVAL);
	libbpf_set_print(old);
	if (e)
		return parse_error(e, name, false, err);
	return make_source(btf, NULL, name, NULL, true, out, err);
}

int slt_source_open_btf_split(const char *path, const char *base_file,
			      struct slt_source **out, struct slt_error *err)
{
	*out = NULL;
	libbpf_print_fn_t old = libbpf_set_print(silent_print);
	struct btf *base = btf__parse_raw(base_file), *btf = NULL;
	int e = base ? 0 : (errno ? -errno : -EINVAL);
	if (base && !(btf = btf__parse_split(path, base)))
		e = errno ? -errno : -EINVAL;
	libbpf_set_print(old);
	if (e) {
		btf__free(base);
		return parse_error(e, base ? path : base_file, false, err);
	}
	return make_source(btf, base, path, base_file, true, out, err);
}
