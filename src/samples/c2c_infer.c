/* SPDX-License-Identifier: MIT */
/*
 * perf c2c Pareto blocks pasted without their header lines (mailing-list
 * excerpts keep only the cacheline blocks): the columns recognised from
 * the rows themselves (c2c_int.h, slt_c2c_infer()), and their detection.
 */
#include <string.h>

#include "samples/c2c_int.h"

bool slt_c2c_block_line(struct slt_span line)
{
	struct slt_span r = line, t;
	uint64_t v;
	size_t n = 0;
	bool hex = false;
	while (slt_tok_next(&r, &t)) {
		if (hex)
			return false;       /* something after the address */
		if (n && slt_parse_hex(t, &v))
			hex = true;
		else if (!slt_parse_u64(t, &v))
			return false;
		n++;
	}
	return hex && n >= 3;           /* Num, a total, the address */
}

/* A Pareto row's shape: 4 to 6 percentages (HITM or peer, then stores),
 * then the data offset in hex (perf mem report's rows start with
 * percentages too, but a symbol follows them). */
static bool pareto_row(struct slt_span tl)
{
	struct slt_span r = tl, t = { NULL, 0 };
	uint32_t centi;
	uint64_t off;
	size_t k = 0;
	while (slt_tok_next(&r, &t) && slt_parse_pct(t, true, &centi))
		k++;
	return k >= 4 && k <= 6 && t.n && slt_parse_hex(t, &off);
}

/* Pareto blocks without header lines: a block header line ("Num
 * <totals> 0xLINE") followed, past dashed separators, by a row of
 * percentages and hex offsets: 55.  Pareto rows alone, without even
 * the block lines, are c2c too (25): read, they are refused naming
 * what is missing. */
int slt_c2c_headless_detect(const unsigned char *head, size_t n)
{
	struct slt_text tx;
	struct slt_span line;
	bool block = false, rows = false;
	slt_text_init(&tx, head, n);
	for (int k = 0; k < 64 && slt_text_next(&tx, &line, NULL); k++) {
		struct slt_span tl = slt_span_trim(line), r = tl, t;
		uint32_t centi;
		if (!tl.n || tl.p[0] == '-' || tl.p[0] == '#')
			continue;
		if (slt_c2c_block_line(tl)) {
			block = true;
			continue;
		}
		if (block && slt_tok_next(&r, &t) && slt_parse_pct(t, true, &centi) &&
		    slt_span_contains(tl, " 0x"))
			return 55;
		rows |= !block && pareto_row(tl);
		block = false;
	}
	return rows ? 25 : 0;
}

static bool is_dec(struct slt_span t)
{
	uint64_t v;
	return slt_parse_u64(t, &v);
}

static bool is_hex(struct slt_span t)
{
	uint64_t v;
	return slt_parse_hex(t, &v);
}

/* The Node column's first token: "0", "0{0-1,4}", "1{" ... */
static bool node_tok(struct slt_span t)
{
	if (!t.n || t.p[0] < '0' || t.p[0] > '9')
		return false;
	for (size_t i = 0; i < t.n; i++)
		if (t.p[i] == '{')
			return true;
		else if (t.p[i] < '0' || t.p[i] > '9')
			return false;
	return true;
}

#define ADD(arr, n, k) do { if (*(n) >= MAX_COLS) { *why = "too many columns"; return false; } \
			    (arr)[(*(n))++] = (k); } while (0)

bool slt_c2c_infer(struct slt_span hdr, struct slt_span row, enum col *pct,
		   size_t *n_pct, enum col *rest, size_t *n_rest, const char **why)
{
	struct slt_span r = hdr, t;
	uint32_t centi;
	size_t totals = 0, k = 0;
	*n_pct = *n_rest = 0;
	slt_tok_next(&r, &t);                   /* Num */
	while (slt_tok_next(&r, &t))
		totals++;
	totals--;                               /* the line address */
	r = row;
	while (slt_tok_next(&r, &t) && slt_parse_pct(t, true, &centi))
		k++;
	if (k != totals) {
		*why = "the rows' percentages do not match the block header's totals";
		return false;
	}
	static const enum col p4[] = { C_HITM_R, C_HITM_L, C_ST_HIT, C_ST_MISS },
			      p5[] = { C_HITM_R, C_HITM_L, C_ST_HIT, C_ST_MISS, C_ST_NA },
			      p6[] = { C_HITM_R, C_HITM_L, C_PEER_L, C_ST_HIT, C_ST_MISS, C_ST_NA };
	const enum col *pk = k == 4 ? p4 : k == 5 ? p5 : k == 6 ? p6 : NULL;
	if (!pk) {
		*why = "4, 5 or 6 percentage columns (HITM or peer, then stores) were expected";
		return false;
	}
	memcpy(pct, pk, k * sizeof(*pct));
	*n_pct = k;
	/* t is the token after the percentages: the Offset */
	if (!is_hex(t)) {
		*why = "no data Offset (0x...) after the percentages";
		return false;
	}
	/* data Node, PA cnt, Pid, Tid up to the Code address */
	struct slt_span between[8];
	size_t nb = 0;
	bool iaddr = false;
	while (slt_tok_next(&r, &t)) {
		if (is_hex(t)) {
			iaddr = true;
			break;
		}
		if (nb == 8)
			break;
		between[nb++] = t;
	}
	if (!iaddr) {
		*why = "no Code address (0x...) after the Offset";
		return false;
	}
	for (size_t i = 0; i < nb; i++) {
		bool tid = memchr(between[i].p, ':', between[i].n) != NULL;
		if (nb >= 2 && i < 2)
			ADD(rest, n_rest, i ? C_PACNT : C_DNODE);
		else if (tid)
			ADD(rest, n_rest, C_TID);
		else if (is_dec(between[i]))
			ADD(rest, n_rest, C_PID);
		else
			ADD(rest, n_rest, C_UNKNOWN);
	}
	ADD(rest, n_rest, C_IADDR);
	/* cycles averages, records, cpu cnt */
	size_t q = 0;
	bool more = false;
	while ((more = slt_tok_next(&r, &t)) && is_dec(t))
		q++;
	size_t cyc = k == 6 ? 4 : 3;
	if (q != cyc + 1 && q != cyc + 2) {
		*why = "the cycles, records and cpu cnt columns after the Code address";
		return false;
	}
	static const enum col c4[] = { C_CY_HITM_R, C_CY_HITM_L, C_CY_LOAD, C_CY_PEER_L };
	for (size_t i = 0; i < cyc; i++)
		ADD(rest, n_rest, c4[i]);
	if (q == cyc + 2)
		ADD(rest, n_rest, C_RECORDS);
	ADD(rest, n_rest, C_CPUCNT);
	if (!more)
		return true;                    /* no symbol columns */
	/* Symbol: "[k] name" or a name; Object; Source:Line unless the next
	 * token starts the Node column */
	ADD(rest, n_rest, C_SYM);
	if (t.n == 3 && t.p[0] == '[' && t.p[2] == ']')
		slt_tok_next(&r, &t);
	if (!slt_tok_next(&r, &t))
		return true;
	ADD(rest, n_rest, C_OBJ);
	if (!slt_tok_next(&r, &t))
		return true;
	if (!node_tok(t)) {
		ADD(rest, n_rest, C_SRC);
		if (!slt_tok_next(&r, &t))
			return true;
	}
	struct slt_span nodes = { t.p, (size_t)(row.p + row.n - t.p) };
	enum col nk = C_NODES;
	if (memchr(nodes.p, '{', nodes.n))
		nk = memchr(nodes.p, '%', nodes.n) || slt_span_contains(nodes, "n/a") ?
		     C_NODES_CNT : C_NODES_LIST;
	ADD(rest, n_rest, nk);
	return true;
}
