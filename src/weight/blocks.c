/* SPDX-License-Identifier: MIT */
/*
 * Basic blocks of the functions that hold memory-access sites, decoded
 * with capstone: a block starts at the function's entry, at every direct
 * jump target inside the function and after every jump, return or trap;
 * calls do not end a block (execution comes back to the next
 * instruction).  Function extents are the ELF FUNC symbols (st_value,
 * st_size: gcc's .cold parts are symbols of their own), else the access
 * map's functions.
 */
#include <capstone/capstone.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "load/elf.h"
#include "weight/weight_int.h"
#include "common/sort.h"

struct range { uint64_t lo, hi; };
struct code { const uint8_t *bytes; uint64_t addr; size_t size; };

struct vecb {
	void *v;
	size_t n, cap, elt;
};

static void *push(struct vecb *v)
{
	if (v->n == v->cap) {
		size_t nc = v->cap ? v->cap * 2 : 64;
		void *p = realloc(v->v, nc * v->elt);
		if (!p)
			return NULL;
		v->v = p;
		v->cap = nc;
	}
	return (char *)v->v + v->elt * v->n++;
}

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* FUNC symbols with a size from .symtab, sorted. */
static int func_symbols(struct slt_elf *e, struct vecb *out, struct slt_error *err)
{
	size_t idx = slt_elf_find_section(e, ".symtab");
	const uint8_t *d;
	size_t n;
	if (!idx || !slt_elf_is64(e) || slt_elf_section_data(e, idx, &d, &n, err))
		return 0;   /* no symbols: the map's functions are used */
	for (size_t off = 0; off + sizeof(Elf64_Sym) <= n; off += sizeof(Elf64_Sym)) {
		Elf64_Sym s;
		memcpy(&s, d + off, sizeof(s));
		if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || !s.st_size || !s.st_value ||
		    s.st_value > UINT64_MAX - s.st_size)
			continue;
		struct range *r = push(out);
		if (!r)
			return SLT_ENOMEM;
		r->lo = s.st_value;
		r->hi = s.st_value + s.st_size;
	}
	if (out->n > 1) /* qsort(NULL, 0) is undefined */
		qsort(out->v, out->n, sizeof(struct range), cmp_range);
	return 0;
}

/* The function range holding pc: the innermost (last starting) symbol
 * whose extent covers it. */
static bool range_of(const struct vecb *f, uint64_t pc, struct range *out)
{
	const struct range *r = f->v;
	size_t lo = 0, hi = f->n;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (r[m].lo <= pc)
			lo = m + 1;
		else
			hi = m;
	}
	for (size_t i = lo; i-- > 0 && i + 8 >= lo;)
		if (pc < r[i].hi) {
			*out = r[i];
			return true;
		}
	return false;
}

static const struct code *code_at(const struct code *c, size_t n, uint64_t a)
{
	for (size_t i = 0; i < n; i++)
		if (a >= c[i].addr && a - c[i].addr < c[i].size)
			return &c[i];
	return NULL;
}

static bool ends_block(const cs_insn *in, uint64_t *target)
{
	const cs_detail *d = in->detail;
	bool jump = false, end = false;
	*target = 0;
	for (uint8_t g = 0; d && g < d->groups_count; g++) {
		if (d->groups[g] == CS_GRP_JUMP)
			jump = true;
		if (d->groups[g] == CS_GRP_RET || d->groups[g] == CS_GRP_IRET ||
		    d->groups[g] == CS_GRP_INT)
			end = true;
	}
	if (in->id == X86_INS_UD2 || in->id == X86_INS_HLT)
		end = true;
	if (jump && d && d->x86.op_count == 1 && d->x86.operands[0].type == X86_OP_IMM)
		*target = (uint64_t)d->x86.operands[0].imm;
	return jump || end;
}

/* Decode [r.lo, r.hi) and append its blocks holding sites[*k..] (sites
 * inside the range, by pc). */
static int decode(csh cs, const struct code *c, struct range r,
		  const struct slt_access_site **sites, size_t n_sites, size_t *k,
		  struct vecb *blocks, struct ipw_blocks *out)
{
	struct vecb ins = {.elt = sizeof(uint64_t)}, lead = {.elt = sizeof(uint64_t)};
	int rc = 0;
	if (r.hi > c->addr + c->size)
		r.hi = c->addr + c->size;
	const uint8_t *p = c->bytes + (r.lo - c->addr);
	size_t left = (size_t)(r.hi - r.lo);
	uint64_t addr = r.lo;
	cs_insn *in = cs_malloc(cs);
	uint64_t *l0 = push(&lead);
	if (!in || !l0) {
		rc = SLT_ENOMEM;
		goto out;
	}
	*l0 = r.lo;
	while (left) {
		uint64_t *slot = push(&ins), t;
		if (!slot) {
			rc = SLT_ENOMEM;
			goto out;
		}
		*slot = addr;
		if (!cs_disasm_iter(cs, &p, &left, &addr, in)) {
			out->undecodable++;
			p++, left--, addr++;
			uint64_t *l = push(&lead);
			if (!l) {
				rc = SLT_ENOMEM;
				goto out;
			}
			*l = addr;  /* resynchronise: a new block */
			continue;
		}
		if (ends_block(in, &t)) {
			uint64_t *a = push(&lead), *b = t >= r.lo && t < r.hi ? push(&lead) : NULL;
			if (!a || (t >= r.lo && t < r.hi && !b)) {
				rc = SLT_ENOMEM;
				goto out;
			}
			*a = addr;
			if (b)
				*b = t;
		}
	}
	uint64_t *pend = push(&ins);
	if (!pend) {
		rc = SLT_ENOMEM;
		goto out;
	}
	*pend = r.hi;   /* sentinel */
	if (lead.n > 1) /* qsort(NULL, 0) is undefined */
		qsort(lead.v, lead.n, sizeof(uint64_t), slt_cmp_u64);
	const uint64_t *ia = ins.v, *la = lead.v;
	size_t li = 0;
	for (size_t i = 0; i + 1 < ins.n;) {
		/* a block: from ia[i] to the next instruction that is a leader */
		size_t j = i + 1;
		while (li < lead.n && la[li] <= ia[i])
			li++;
		while (j + 1 < ins.n && !(li < lead.n && ia[j] >= la[li]))
			j++;
		struct ipw_block blk = {.lo = ia[i], .hi = ia[j], .n_insns = (uint32_t)(j - i),
					.site0 = (uint32_t)out->n_sites};
		while (*k < n_sites && sites[*k]->pc < blk.lo)
			(*k)++;   /* inside undecodable bytes: not placeable */
		while (*k < n_sites && sites[*k]->pc < blk.hi) {
			out->sites[out->n_sites++] = sites[(*k)++];
			blk.n_sites++;
		}
		if (blk.n_sites) {
			struct ipw_block *b = push(blocks);
			if (!b) {
				rc = SLT_ENOMEM;
				goto out;
			}
			*b = blk;
		}
		i = j;
	}
out:
	if (in)
		cs_free(in, 1);
	free(ins.v);
	free(lead.v);
	return rc;
}

static bool wanted(const struct slt_access_site *s, const char *const *types,
		   size_t n)
{
	if (!(s->kind & (SLT_ACCESS_LOAD | SLT_ACCESS_STORE)))
		return false;   /* lea: no memory touched */
	for (size_t i = 0; i < n; i++)
		if (!strcmp(types[i], s->type))
			return true;
	return false;
}

int ipw_blocks_build(const char *path, const struct slt_access_map *map,
		     const char *const *types, size_t n_types,
		     struct ipw_blocks *out, struct slt_error *err)
{
	struct slt_elf *e = NULL;
	struct vecb funcs = {.elt = sizeof(struct range)};
	struct vecb blocks = {.elt = sizeof(struct ipw_block)};
	struct code *code = NULL;
	const struct slt_access_site **sel = NULL;
	size_t n_code = 0, n_sel = 0;
	csh cs = 0;
	bool cs_ok = false;
	memset(out, 0, sizeof(*out));
	int rc = slt_elf_open(path, &e, err);
	if (rc)
		return rc;
	size_t ns = slt_elf_nsections(e);
	code = calloc(ns ? ns : 1, sizeof(*code));
	sel = calloc(map->n_sites ? map->n_sites : 1, sizeof(*sel));
	out->sites = calloc(map->n_sites ? map->n_sites : 1, sizeof(*out->sites));
	if (!code || !sel || !out->sites) {
		rc = SLT_ENOMEM;
		goto out;
	}
	for (size_t i = 1; i < ns; i++) {
		const struct slt_elf_section *s = slt_elf_section(e, i);
		if (s->type != SHT_PROGBITS || !(s->flags & SHF_EXECINSTR) ||
		    !(s->flags & SHF_ALLOC) || !s->size)
			continue;
		if ((rc = slt_elf_section_data(e, i, &code[n_code].bytes, &code[n_code].size, err)))
			goto out;
		code[n_code++].addr = s->addr;
	}
	if ((rc = func_symbols(e, &funcs, err)))
		goto out;
	for (size_t i = 0; i < map->n_sites; i++)
		if (wanted(&map->sites[i], types, n_types))
			sel[n_sel++] = &map->sites[i];
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
		rc = SLT_ENOMEM;
		goto out;
	}
	cs_ok = true;
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	for (size_t k = 0; k < n_sel && !rc;) {
		uint64_t pc = sel[k]->pc;
		struct range r;
		if (!range_of(&funcs, pc, &r)) {
			const struct slt_access_func *f = &map->funcs[sel[k]->func];
			r.lo = f->low_pc;
			r.hi = f->low_pc + f->size;
		}
		const struct code *c = code_at(code, n_code, r.lo);
		if (!c || pc < r.lo || pc >= r.hi || code_at(code, n_code, pc) != c) {
			k++;   /* code not in the file: the site is not placeable */
			continue;
		}
		rc = decode(cs, c, r, sel, n_sel, &k, &blocks, out);
		while (!rc && k < n_sel && sel[k]->pc < r.hi)
			k++;
	}
out:
	if (rc == SLT_ENOMEM)
		rc = slt_error_set(err, SLT_ENOMEM, path, -1, NULL, "out of memory");
	if (cs_ok)
		cs_close(&cs);
	slt_elf_close(e);
	free(code);
	free(sel);
	free(funcs.v);
	/* symbols may nest or overlap: blocks in address order */
	if (blocks.n > 1) /* qsort(NULL, 0) is undefined */
		qsort(blocks.v, blocks.n, sizeof(struct ipw_block), slt_cmp_u64);
	out->b = blocks.v;
	out->n = blocks.n;
	if (rc)
		ipw_blocks_free(out);
	return rc;
}

void ipw_blocks_free(struct ipw_blocks *b)
{
	free(b->b);
	free(b->sites);
	memset(b, 0, sizeof(*b));
}

long ipw_blocks_find(const struct ipw_blocks *b, uint64_t addr)
{
	size_t lo = 0, hi = b->n;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (b->b[m].lo <= addr)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo && addr < b->b[lo - 1].hi)
		return (long)(lo - 1);
	return -1;
}
