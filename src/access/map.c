/* SPDX-License-Identifier: MIT */
/*
 * The access map's entry points: open the file (the DWARF source of
 * src/load), collect every function with code from every compile unit,
 * decode and track each one (track.c), and hand back sorted sites and
 * coverage counts.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "access/access_int.h"
#include "access/lines.h"
#include "load/source.h"

struct priv {
	struct slt_source *src;
	struct acode *code;
	size_t n_code;
	csh att;                   /* AT&T syntax, for slt_access_site_insn */
	bool att_open;
	struct slt_acc_lines *lines;
	/* a map read back from the cache (persist.c): the file is opened
	 * when a site's source or instruction is first asked for */
	bool lazy;
	bool lazy_failed;
	void *blob;                /* the payload the strings point into */
	char *path;                /* owned copy of the path */
	struct func_pc { uint64_t pc; uint32_t i; } *by_pc;
				   /* funcs by low_pc (callee names), lazy */
	bool by_pc_failed;
};

static const char *const reason_names[SLT_AR_N] = {
	[SLT_AR_OK] = "ok",
	[SLT_AR_NO_VAR] = "no-location",
	[SLT_AR_NOT_STRUCT] = "not-struct",
	[SLT_AR_NO_TYPE] = "no-type",
	[SLT_AR_BAD_OFFSET] = "bad-offset",
	[SLT_AR_STACK] = "stack",
	[SLT_AR_STACK_LOCAL] = "stack-local",
	[SLT_AR_VAR_TYPED] = "typed-variable",
	[SLT_AR_GLOBAL] = "global",
	[SLT_AR_SEGMENT] = "per-cpu-tls",
	[SLT_AR_INDEXED] = "indexed",
	[SLT_AR_BAD_LOC] = "corrupt-location",
};

const char *slt_access_reason_name(enum slt_access_reason r)
{
	return (unsigned)r < SLT_AR_N ? reason_names[r] : "?";
}

static const char *const reason_help[SLT_AR_N] = {
	[SLT_AR_OK] = "attributed to a struct member",
	[SLT_AR_NO_VAR] = "no variable located in the base register and no type tracked into it",
	[SLT_AR_NOT_STRUCT] = "a pointer to a base type, void or a function",
	[SLT_AR_NO_TYPE] = "the pointee is only declared, or its DWARF unreadable",
	[SLT_AR_BAD_OFFSET] = "outside the pointee, no unique container in scope (container_of)",
	[SLT_AR_STACK] = "a stack slot of no known type (spill, argument, saved register)",
	[SLT_AR_STACK_LOCAL] = "resolved: a stack datum of known type that is no struct",
	[SLT_AR_VAR_TYPED] = "resolved: a global or per-CPU variable of another type",
	[SLT_AR_GLOBAL] = "%rip-relative or absolute, in no variable the DWARF places there",
	[SLT_AR_SEGMENT] = "%gs/%fs (per-CPU, TLS) through an untyped register or no struct variable",
	[SLT_AR_INDEXED] = "indexed, offset unknown: an index of unknown value over no array its scale steps",
	[SLT_AR_BAD_LOC] = "no location: the function's location lists could not be read (corrupt)",
};

const char *slt_access_reason_help(enum slt_access_reason r)
{
	return (unsigned)r < SLT_AR_N ? reason_help[r] : "?";
}

uint64_t slt_access_resolved(const uint64_t *r)
{
	return r[SLT_AR_OK] + r[SLT_AR_STACK_LOCAL] + r[SLT_AR_VAR_TYPED];
}

static int code_sections(struct dw *d, struct priv *p, struct slt_error *err)
{
	size_t n = slt_elf_nsections(d->elf);
	p->code = calloc(n ? n : 1, sizeof(*p->code));
	if (!p->code)
		return slt_error_set(err, SLT_ENOMEM, d->path, -1, NULL,
				     "out of memory");
	for (size_t i = 1; i < n; i++) {
		const struct slt_elf_section *s = slt_elf_section(d->elf, i);
		if (s->type != SHT_PROGBITS || !(s->flags & SHF_EXECINSTR) ||
		    !(s->flags & SHF_ALLOC) || !s->size)
			continue;
		const uint8_t *data;
		size_t size;
		int rc = slt_elf_section_data(d->elf, i, &data, &size, err);
		if (rc)
			return rc;
		p->code[p->n_code++] = (struct acode){
			.bytes = data, .addr = s->addr, .size = size};
	}
	return 0;
}

/* The name of an ELF e_machine (elf.h), NULL for one not listed. */
static const char *machine_name(unsigned m)
{
	static const struct { unsigned m; const char *name; } names[] = {
		{EM_386, "i386"}, {EM_ARM, "arm"}, {EM_AARCH64, "aarch64"},
		{EM_RISCV, "riscv"}, {EM_PPC, "ppc"}, {EM_PPC64, "ppc64"},
		{EM_S390, "s390"}, {EM_MIPS, "mips"}, {EM_SPARC, "sparc"},
		{EM_SPARCV9, "sparc64"}, {EM_IA_64, "ia64"},
		{EM_LOONGARCH, "loongarch"}, {EM_BPF, "bpf"},
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].m == m)
			return names[i].name;
	return NULL;
}

static int not_x86(const char *path, unsigned machine, struct slt_error *err)
{
	const char *name = machine_name(machine);
	if (name)
		return slt_error_set(err, SLT_EUNSUPPORTED, path, -1,
				     "the access map decodes x86-64 code only",
				     "ELF machine %s (%u) is not x86-64", name, machine);
	return slt_error_set(err, SLT_EUNSUPPORTED, path, -1,
			     "the access map decodes x86-64 code only",
			     "ELF machine %u is not x86-64", machine);
}

/* Why a file has no code to decode: a separate debug file
 * (objcopy --only-keep-debug, /usr/lib/debug) keeps its executable
 * sections as SHT_NOBITS; anything else has no executable section.
 * Unless always, 0 when e has an executable section with bytes. */
static int no_code(const struct slt_elf *e, const char *path, bool always,
		   struct slt_error *err)
{
	size_t n = slt_elf_nsections(e);
	const struct slt_elf_section *nb = NULL;
	for (size_t i = 1; i < n; i++) {
		const struct slt_elf_section *s = slt_elf_section(e, i);
		if (!(s->flags & SHF_EXECINSTR) || !s->size)
			continue;
		if (s->type != SHT_NOBITS && !always)
			return 0;
		if (s->type == SHT_NOBITS && (!nb || !strcmp(s->name, ".text")))
			nb = s;
	}
	if (nb)
		return slt_error_set(err, SLT_EUNSUPPORTED, path, -1,
					     "give the binary, the file with the code",
					     "a separate debug file: %s is SHT_NOBITS, "
					     "no machine code", nb->name);
	return slt_error_set(err, SLT_EUNSUPPORTED, path, -1,
			     "give the binary, the file with the code",
			     "no executable section: no machine code");
}

/* The x86-64 kernel's per-CPU area: a .data..percpu section linked at
 * address 0 (CONFIG_SMP), which %gs addresses. */
static void percpu_section(struct dw *d, struct aglobals *g)
{
	size_t n = slt_elf_nsections(d->elf);
	for (size_t i = 1; i < n; i++) {
		const struct slt_elf_section *s = slt_elf_section(d->elf, i);
		if (!strcmp(s->name, ".data..percpu") && s->addr == 0 && s->size) {
			g->percpu = true;
			g->percpu_size = s->size;
		}
	}
}

struct collect {
	struct vec v;          /* struct afunc with code */
	struct aglobals g;     /* struct variables at fixed addresses */
	struct ascope_ctx sc;  /* the CU of the last DIE seen */
	bool have_cu;
};

/* The CU context of die (cached while the walk stays in one CU). */
static void cu_of(struct dw *d, struct collect *c, Dwarf_Die die)
{
	Dwarf_Off cu = 0;
	Dwarf_Error e = NULL;
	if (dwarf_CU_dieoffset_given_die(die, &cu, &e) != DW_DLV_OK) {
		dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
		return;
	}
	if (c->have_cu && c->sc.cu_off == cu)
		return;
	c->sc = (struct ascope_ctx){.d = d, .cu_off = cu};
	c->have_cu = true;
	Dwarf_Half ver = 0, osz = 0;
	if (dwarf_get_version_of_die(die, &ver, &osz) == DW_DLV_OK)
		c->sc.version = ver;
	Dwarf_Die cd = NULL;
	if (dwarf_offdie_b(d->dbg, cu, 1, &cd, &e) != DW_DLV_OK) {
		if (e)
			dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
		return;
	}
	Dwarf_Addr base = 0;
	if (dwarf_lowpc(cd, &base, &e) == DW_DLV_OK)
		c->sc.cu_base = base;
	else if (e)
		dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
	e = NULL;
	Dwarf_Half asz = 0;
	if (dwarf_get_die_address_size(cd, &asz, &e) == DW_DLV_OK)
		c->sc.addr_size = asz;
	else if (e)
		dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
	e = NULL;
	Dwarf_Attribute a = NULL;
	Dwarf_Unsigned llb = 0;
	if (dwarf_attr(cd, DW_AT_loclists_base, &a, &e) == DW_DLV_OK) {
		if (dwarf_global_formref(a, &llb, &e) == DW_DLV_OK) {
			c->sc.has_loclists_base = true;
			c->sc.loclists_base = llb;
		}
		dwarf_dealloc(d->dbg, a, DW_DLA_ATTR);
	}
	if (e)
		dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
	dwarf_dealloc_die(cd);
}

/* slt_dw_walk() callback: every top-level subprogram with code. */
static int top_die(struct dw *d, Dwarf_Die die, Dwarf_Half tag, void *ctx)
{
	struct collect *c = ctx;
	Dwarf_Off off = 0;
	Dwarf_Error e = NULL;
	if (tag == DW_TAG_variable) {
		int rc = slt_acc_globals_add(d, &c->g, die);
		d->rc = 0;
		return rc;
	}
	if (tag != DW_TAG_subprogram)
		return 0;
	if (dwarf_dieoffset(die, &off, &e) != DW_DLV_OK) {
		dwarf_dealloc(d->dbg, e, DW_DLA_ERROR);
		return 0;
	}
	cu_of(d, c, die);
	struct afunc f;
	int rc = slt_acc_scope_func(&c->sc, die, off, &f);
	struct afunc *p = !rc && f.n_ranges ? slt_dw_vec_push(d, &c->v) : NULL;
	if (p) {
		*p = f;
		return 0;
	}
	slt_acc_func_free(&f);
	if (!rc && f.n_ranges)
		rc = SLT_ENOMEM; /* the push failed */
	d->rc = 0; /* a failed type lookup inside is not the walk's failure */
	return rc;
}

static int cmp_func(const void *a, const void *b)
{
	uint64_t x = ((const struct afunc *)a)->ranges[0];
	uint64_t y = ((const struct afunc *)b)->ranges[0];
	return x < y ? -1 : x > y;
}

static int cmp_site(const void *a, const void *b)
{
	const struct slt_access_site *x = a, *y = b;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static int cmp_embed(const void *a, const void *b)
{
	const struct aembed *x = a, *y = b;
	int c = strcmp(x->inner->name, y->inner->name);
	if (c)
		return c;
	if (x->inner->size != y->inner->size)
		return x->inner->size < y->inner->size ? -1 : 1;
	c = strcmp(x->outer->name ? x->outer->name : "",
		   y->outer->name ? y->outer->name : "");
	if (c)
		return c;
	return x->outer->size < y->outer->size ? -1 : x->outer->size > y->outer->size;
}

/* calls->embeds (one per site and level) -> m->embeds (one per type). */
static int embeds_table(struct acalls *c, struct slt_access_map *m)
{
	struct aembed *e = c->embeds.v;
	size_t n = c->embeds.n;
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(e, n, sizeof(*e), cmp_embed);
	m->embeds = calloc(n + 1, sizeof(*m->embeds));
	if (!m->embeds)
		return SLT_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		bool new_type = !i || strcmp(e[i].inner->name, e[i - 1].inner->name) ||
				e[i].inner->size != e[i - 1].inner->size;
		if (new_type)
			m->embeds[m->n_embeds++] = (struct slt_access_embed){
				.type = e[i].inner->name, .type_size = e[i].inner->size};
		bool named = e[i].outer->name && e[i].outer->name[0];
		if (named && (new_type || cmp_embed(&e[i], &e[i - 1])))
			m->embeds[m->n_embeds - 1].n_containers++;
	}
	return 0;
}

uint32_t slt_access_containers(const struct slt_access_map *m,
			       const char *type, uint64_t size)
{
	size_t lo = 0, hi = m->n_embeds;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct slt_access_embed *e = &m->embeds[mid];
		int c = strcmp(e->type, type);
		if (!c && e->type_size == size)
			return e->n_containers;
		if (c < 0 || (!c && e->type_size < size))
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static void calls_free(struct acalls *c)
{
	free(c->embeds.v);
	free(c->acc.v);
	free(c->edges.v);
	free(c->sites.v);
}

static int build(struct slt_source *src, const struct slt_access_opts *opts,
		 struct slt_access_map **out, struct slt_error *err)
{
	struct dw *d = (struct dw *)src;
	struct slt_access_map *m = calloc(1, sizeof(*m));
	struct priv *p = calloc(1, sizeof(*p));
	struct collect c = {.v = {.elt = sizeof(struct afunc)}};
	struct vec sites = {.elt = sizeof(struct slt_access_site)};
	struct acalls calls = {
		.embeds = {.elt = sizeof(struct aembed)},
		.acc = {.elt = sizeof(struct acall_acc)},
		.edges = {.elt = sizeof(struct acall_edge)},
		.sites = {.elt = sizeof(struct acall_site)},
	};
	struct slt_error scratch;
	int rc = 0;
	if (!m || !p) {
		free(m);
		free(p);
		src->ops->close(src);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	m->priv_ = p;
	p->src = src;
	m->path = src->path;
	if (slt_elf_machine(d->elf) != EM_X86_64) {
		rc = not_x86(d->path, slt_elf_machine(d->elf), err);
		goto fail;
	}
	if (slt_elf_type(d->elf) == ET_REL) {
		rc = slt_error_set(err, SLT_EUNSUPPORTED, d->path, -1,
				   "link it (an executable, shared object or "
				   "vmlinux) and pass that",
				   "relocatable object: function addresses "
				   "overlap across sections");
		goto fail;
	}
	if ((rc = code_sections(d, p, err)))
		goto fail;
	if (!p->n_code) {   /* nothing to decode: refused, so never cached */
		rc = no_code(d->elf, d->path, true, err);
		goto fail;
	}
	percpu_section(d, &c.g);
	slt_error_clear(&scratch);
	d->err = &scratch; /* type errors show as "no-type", not as failure */
	rc = slt_dw_walk(d, NULL, top_die, &c);
	d->err = err;
	if (rc == SLT_ENOMEM) {
		rc = slt_error_set(err, rc, d->path, -1, NULL, "out of memory");
		goto fail;
	}
	if (rc && !c.v.n) { /* corrupt as a whole: say where */
		*err = scratch;
		goto fail;
	}
	rc = 0; /* functions before a corrupt CU header are analysed */
	d->err = &scratch;
	struct afunc *fv = c.v.v;
	size_t nf = c.v.n;
	if (!nf) {
		rc = slt_error_set(err, SLT_ENODEBUG, d->path, -1,
				   "build with -g (and keep the code in the file)",
				   "no function with code in the DWARF");
		goto fail;
	}
	if (nf > 1) /* qsort(NULL, 0) is undefined */
		qsort(fv, nf, sizeof(*fv), cmp_func);
	/* one entry per entry address (LTO/partial units may repeat one) */
	size_t w = 0;
	for (size_t i = 0; i < nf; i++) {
		if (w && fv[w - 1].ranges[0] == fv[i].ranges[0]) {
			slt_acc_func_free(&fv[i]);
			continue;
		}
		fv[w++] = fv[i];
	}
	c.v.n = nf = w;
	m->funcs = calloc(nf, sizeof(*m->funcs));
	if (!m->funcs) {
		rc = slt_error_set(err, SLT_ENOMEM, d->path, -1, NULL, "out of memory");
		goto fail;
	}
	m->n_funcs = nf;
	csh cs;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
		rc = slt_error_set(err, SLT_ENOMEM, d->path, -1, NULL,
				   "capstone: cannot open an x86-64 decoder");
		goto fail;
	}
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	struct atrack_env env = {
		.d = d, .cs = cs, .code = p->code, .n_code = p->n_code,
		.all = fv, .n_all = nf, .opts = opts, .calls = &calls,
		.globals = &c.g,
	};
	slt_acc_globals_done(&c.g);
	for (size_t i = 0; i < nf && !rc; i++) {
		struct afunc *f = &fv[i];
		struct slt_access_func *af = &m->funcs[i];
		af->name = f->name;
		af->low_pc = f->ranges[0];
		af->cu = f->cu;
		for (size_t r = 0; r < f->n_ranges; r++)
			af->size += f->ranges[2 * r + 1] - f->ranges[2 * r];
		if (opts && opts->progress && (i & 1023) == 0)
			opts->progress(opts->progress_ctx, i, nf);
		size_t before = af->n_insns;
		rc = slt_acc_track(&env, f, (uint32_t)i, m, &sites);
		if (af->n_insns == before)
			m->n_no_code++;
		m->n_insns += af->n_insns;
		m->n_mem += af->n_mem;
		if (f->bad_loc) {
			if (!m->n_bad_loc_funcs++ || f->bad_loc_off < m->bad_loc_off) {
				m->bad_loc_off = f->bad_loc_off;
				m->bad_loc_version = f->bad_loc;
			}
		}
		for (int k = 0; k < SLT_AR_N; k++)
			m->reasons[k] += af->reasons[k];
	}
	cs_close(&cs);
	if (!rc)
		rc = slt_acc_calls_apply(d, &calls, &sites);
	if (!rc)
		rc = embeds_table(&calls, m);

	if (rc) {
		rc = slt_error_set(err, rc, d->path, -1, NULL, "out of memory");
		goto fail;
	}
	if (!m->n_insns) {   /* an empty map would be cached as the binary's */
		rc = slt_error_set(err, SLT_EUNSUPPORTED, d->path, -1,
				   "give the binary, the file with the code",
				   "none of the %zu functions in the DWARF has its "
				   "code in the file (code sections removed?)", nf);
		goto fail;
	}
	d->err = NULL;
	m->sites = sites.v;
	m->n_sites = sites.n;
	sites.v = NULL;
	if (m->n_sites > 1) /* qsort(NULL, 0) is undefined */
		qsort(m->sites, m->n_sites, sizeof(*m->sites), cmp_site);
	for (size_t i = 0; i < nf; i++)
		slt_acc_func_free(&fv[i]);
	free(fv);
	calls_free(&calls);
	slt_acc_globals_free(&c.g);
	*out = m;
	return 0;
fail:
	calls_free(&calls);
	slt_acc_globals_free(&c.g);
	d->err = NULL;
	for (size_t i = 0; i < c.v.n; i++)
		slt_acc_func_free(&((struct afunc *)c.v.v)[i]);
	free(c.v.v);
	free(sites.v);
	slt_access_free(m);
	return rc;
}

int slt_access_check_file(const char *path, struct slt_error *err)
{
	unsigned char h[20];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;   /* the open that follows says why */
	ssize_t n = read(fd, h, sizeof(h));
	close(fd);
	if (n >= 4 && slt_btf_magic(h, (size_t)n))
		return slt_error_set(err, SLT_EUNSUPPORTED, path, -1,
				     "give a vmlinux with DWARF and its code",
				     "raw BTF only, no machine code");
	if (n == (ssize_t)sizeof(h) && !memcmp(h, ELFMAG, SELFMAG)) {
		unsigned m = h[EI_DATA] == ELFDATA2MSB ? (unsigned)h[18] << 8 | h[19]
						       : (unsigned)h[19] << 8 | h[18];
		if (m != EM_X86_64)
			return not_x86(path, m, err);
		/* no machine code (a separate debug file): refused before
		 * any cache lookup by build-id, which such a file shares */
		struct slt_elf *e = NULL;
		struct slt_error scratch;
		slt_error_clear(&scratch);
		if (slt_elf_open(path, &e, &scratch))
			return 0;   /* the open that follows says why */
		int rc = no_code(e, path, false, err);
		slt_elf_close(e);
		return rc;
	}
	return 0;
}

int slt_access_build(const char *path, const struct slt_access_opts *opts,
		     struct slt_access_map **out, struct slt_error *err)
{
	struct slt_source *src;
	*out = NULL;
	int rc = slt_access_check_file(path, err);
	if (rc)
		return rc;
	rc = slt_source_open_dwarf(path, NULL, &src, err);
	return rc ? rc : build(src, opts, out, err);
}

int slt_access_build_mem(const void *data, size_t size, const char *name,
			 const struct slt_access_opts *opts,
			 struct slt_access_map **out, struct slt_error *err)
{
	struct slt_source *src;
	*out = NULL;
	int rc = slt_source_open_dwarf_mem(data, size, name, &src, err);
	return rc ? rc : build(src, opts, out, err);
}

void slt_access_free(struct slt_access_map *m)
{
	if (!m)
		return;
	struct priv *p = m->priv_;
	if (p) {
		slt_acc_lines_free(p->lines);
		if (p->att_open)
			cs_close(&p->att);
		free(p->by_pc);
		free(p->code);
		if (p->src)
			p->src->ops->close(p->src);
		free(p->blob);
		free(p->path);
		free(p);
	}
	free(m->sites);
	free(m->funcs);
	free(m->embeds);
	free(m);
}

struct slt_access_map *slt_acc_map_new_lazy(const char *path, void *blob)
{
	struct slt_access_map *m = calloc(1, sizeof(*m));
	struct priv *p = calloc(1, sizeof(*p));
	char *cp = strdup(path);
	if (!m || !p || !cp) {
		free(m);
		free(p);
		free(cp);
		return NULL;
	}
	p->lazy = true;
	p->blob = blob;
	p->path = cp;
	m->path = cp;
	m->priv_ = p;
	return m;
}

/* The file behind a map read from the cache, opened on first need. */
static bool lazy_open(struct slt_access_map *m)
{
	struct priv *p = m->priv_;
	if (p->src)
		return true;
	if (!p->lazy || p->lazy_failed)
		return false;
	struct slt_error err;
	slt_error_clear(&err);
	struct slt_source *src = NULL;
	if (slt_source_open_dwarf(m->path, NULL, &src, &err) ||
	    code_sections((struct dw *)src, p, &err)) {
		if (src)
			src->ops->close(src);
		free(p->code);
		p->code = NULL;
		p->n_code = 0;
		p->lazy_failed = true;
		return false;
	}
	p->src = src;
	return true;
}

int slt_access_site_source(struct slt_access_map *m,
			   const struct slt_access_site *s, const char **file,
			   uint32_t *line)
{
	struct priv *p = m->priv_;
	*file = "";
	*line = 0;
	if (s->func >= m->n_funcs || !lazy_open(m))
		return SLT_ENOTFOUND;
	struct dw *d = (struct dw *)p->src;
	if (!p->lines && !(p->lines = slt_acc_lines_new(d)))
		return SLT_ENOMEM;
	return slt_acc_lines_find(p->lines, m->funcs[s->func].cu, s->pc, file,
				  line);
}

static int cmp_by_pc(const void *a, const void *b)
{
	uint64_t x = ((const struct func_pc *)a)->pc, y = ((const struct func_pc *)b)->pc;
	return x < y ? -1 : x > y;
}

/* The name of the function whose code starts at pc, or NULL: a binary
 * search over the functions sorted by entry once (sites are many). */
static const char *func_at(const struct slt_access_map *m, uint64_t pc)
{
	struct priv *p = m->priv_;
	if (!p->by_pc && !p->by_pc_failed && m->n_funcs) {
		if (!(p->by_pc = malloc(m->n_funcs * sizeof(*p->by_pc)))) {
			p->by_pc_failed = true;
			return NULL;
		}
		for (size_t i = 0; i < m->n_funcs; i++)
			p->by_pc[i] = (struct func_pc){m->funcs[i].low_pc, (uint32_t)i};
		qsort(p->by_pc, m->n_funcs, sizeof(*p->by_pc), cmp_by_pc);
	}
	if (!p->by_pc)
		return NULL;
	size_t lo = 0, hi = m->n_funcs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->by_pc[mid].pc == pc) {
			const char *nm = m->funcs[p->by_pc[mid].i].name;
			return nm && nm[0] ? nm : NULL;
		}
		if (p->by_pc[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

char *slt_access_site_insn(const struct slt_access_map *m,
			   const struct slt_access_site *s, char *buf,
			   size_t size)
{
	struct priv *p = m->priv_;
	if (size)
		buf[0] = 0;
	if (!lazy_open((struct slt_access_map *)m))
		return buf;
	if (!p->att_open) {
		if (cs_open(CS_ARCH_X86, CS_MODE_64, &p->att) != CS_ERR_OK)
			return buf;
		cs_option(p->att, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
		p->att_open = true;
	}
	for (size_t i = 0; i < p->n_code; i++) {
		const struct acode *c = &p->code[i];
		if (s->pc < c->addr || s->pc - c->addr >= c->size)
			continue;
		const uint8_t *b = c->bytes + (s->pc - c->addr);
		size_t n = c->size - (s->pc - c->addr);
		cs_insn *in = NULL;
		if (cs_disasm(p->att, b, n < 16 ? n : 16, s->pc, 1, &in) == 1) {
			const char *callee = NULL;
			if ((in->id == X86_INS_CALL || in->id == X86_INS_JMP) &&
			    !strncmp(in->op_str, "0x", 2))
				callee = func_at(m, strtoull(in->op_str, NULL, 16));
			snprintf(buf, size, "%s%s%s%s%s%s", in->mnemonic,
				 in->op_str[0] ? " " : "", in->op_str,
				 callee ? " <" : "", callee ? callee : "", callee ? ">" : "");
			cs_free(in, 1);
		}
		break;
	}
	return buf;
}
