/* SPDX-License-Identifier: MIT */
/*
 * `perf c2c report --stdio` text (perf 4.8 ... 6.x), see
 * tools/perf/builtin-c2c.c and tools/perf/Documentation/perf-c2c.txt.
 *
 * Read: the Trace Event Information and c2c details (totals and events,
 * into info->detail), the Shared Data Cache Line Table (line count, line
 * addresses for the cacheline size), and every Shared Cache Line
 * Distribution Pareto block, one SLT_SAMPLE_LINE record per row.
 *
 * Columns are located by their header text (the '#' line with "Num" and
 * "Offset", and the dashed group line above it), never by position, so
 * the HITM (Intel), peer snoop (perf >= 6.0, -d peer), Arm SPE v1,
 * perf 4.8 (-d rmt, no "records" column), coalesce (Pid, Tid, no Code
 * address) and -N / -NN node variants all read the same way.
 *
 * What a Pareto row prints and how it becomes counts:
 *  - HITM, peer and store columns are percentages of the block's totals
 *    (the block header line "Num <totals...> <line address>", same
 *    columns).  count = round(pct * total / 100) half up, pct having two
 *    decimals: exact to +-(0.005% of the total), e.g. +-5 for 109036.
 *  - stores = L1 Hit + L1 Miss + N/A (or "Any Lvl") store counts.
 *  - loads = "records" - stores (perf counts every sample of the row in
 *    records), never less than the row's HITM + peer counts; without a
 *    records column (perf 4.8) loads = HITM + peer (a lower bound).
 *  - the cycles columns are per-class averages (perf's compute_stats():
 *    each load goes to the first of rmt hitm, lcl hitm, rmt peer, lcl
 *    peer, load), so cycles = sum(avg * count of that class), with the
 *    "load" class = loads - HITM - peer.  Averages are printed rounded to
 *    whole cycles, so cycles are approximate by up to half a cycle per
 *    load.
 *  - cpu cnt -> cpu_count; Node{cpu list} (-NN) -> cpus[]; a node
 *    column naming exactly one node -> node (the accessing CPUs' node).
 *  - Pid/Tid ("4242:comm") -> pid/tid, Code address -> ip.
 * Rows that cannot be read (or come before any header/block) are counted
 * in info->skipped; nothing else fails, so excerpts read fine.
 *
 * perf prints one Pareto block per cacheline.  A second block for a line
 * address already read is a copy (a mail or paste artifact; reading it
 * would count its samples twice): its rows are skipped, counted in
 * info->skipped, and info->detail says how many blocks were repeats.
 */
#include "samples/c2c_int.h"
#include "samples/parsers.h"
#include "samples/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CPUS 4096

struct c2c {
	const struct slt_parse_ctx *pc;
	uint64_t row_line;         /* the row parse_row() reads, 1-based */
	/* Pareto columns */
	enum col pct[MAX_COLS];
	size_t n_pct;
	enum col rest[MAX_COLS];
	size_t n_rest;
	bool have_header;
	/* current block */
	bool have_block;
	bool repeat_block;      /* a line address read before: skip rows */
	uint64_t line_addr;
	/* line addresses of the blocks read (open addressing, 0 = free,
	 * address 0 kept aside) */
	uint64_t *seen;
	size_t seen_cap, seen_n;
	bool seen_zero;
	unsigned repeat_blocks;
	uint64_t totals[MAX_COLS];
	/* summary */
	bool seen_c2c;
	unsigned table_lines, blocks;
	bool any_unaligned128, any_high_offset;
	uint64_t t_records, t_loads, t_stores, t_lhitm, t_rhitm, t_lpeer, t_rpeer;
	char events[96], sort[40], grouping[48];
	bool in_events;
	/* Pareto blocks without the header lines (c2c_infer.c) */
	struct slt_span pending;  /* a block header read before any header */
	bool inferred;            /* the columns came from the rows */
	bool rows_nodes, rows_node_cnt, rows_cpu_list; /* rows read with each
				     kind of node column */
	const char *infer_why;    /* why they could not, or NULL */
	unsigned infer_line;      /* the row that failed */
	uint64_t headless;        /* rows with neither header nor block */
	/* row scratch */
	uint16_t cpus[MAX_CPUS];
	char sym[256], obj[256], src[256];
};

struct run { size_t b, e; };

/* Column of p inside line. */
static size_t col_of(struct slt_span line, const char *p)
{
	return (size_t)(p - line.p);
}

/* Dash-delimited groups of the line above the header: "--- NAME ---". */
static size_t groups_of(struct slt_span g, struct run *out, struct slt_span *names,
			size_t max)
{
	struct run runs[2 * MAX_COLS];
	size_t nr = 0;
	for (size_t i = 0; i < g.n && nr < 2 * MAX_COLS;) {
		if (g.p[i] == '-') {
			size_t j = i;
			while (j < g.n && g.p[j] == '-')
				j++;
			if (j - i >= 2)
				runs[nr++] = (struct run){ i, j };
			i = j;
		} else {
			i++;
		}
	}
	size_t n = 0;
	for (size_t k = 0; k + 1 < nr && n < max; k += 2) {
		out[n] = (struct run){ runs[k].b, runs[k + 1].e };
		names[n] = slt_span_trim((struct slt_span){ g.p + runs[k].e,
			runs[k + 1].b - runs[k].e });
		n++;
	}
	return n;
}

static bool has_group(struct run *gr, struct slt_span *gn, size_t ng,
		      size_t col_end, const char *word)
{
	for (size_t i = 0; i < ng; i++)
		if (col_end > gr[i].b && col_end <= gr[i].e)
			return slt_span_contains(gn[i], word);
	return false;
}

static const struct { const char *a, *b; } two_words[] = {
	{ "L1", "Hit" }, { "L1", "Miss" }, { "Any", "Lvl" }, { "PA", "cnt" },
	{ "Code", "address" }, { "rmt", "hitm" }, { "lcl", "hitm" },
	{ "rmt", "peer" }, { "lcl", "peer" },
};

/* Parse the Pareto header (line, after '#') with its group line. */
static bool parse_header(struct c2c *c, struct slt_span line, struct slt_span group)
{
	struct run gr[MAX_COLS];
	struct slt_span gn[MAX_COLS];
	/* both lines are compared by column, so use the same origin */
	size_t ng = group.n ? groups_of(group, gr, gn, MAX_COLS) : 0;
	struct slt_span rest = line, t, t2;
	bool after_offset = false, after_sym = false, seen_num = false;
	c->n_pct = c->n_rest = 0;
	while (slt_tok_next(&rest, &t)) {
		if (slt_span_eq(t, "#"))
			continue;
		char label[40];
		slt_span_copy(t, label, sizeof(label));
		/* merge two-word labels */
		for (size_t i = 0; i < sizeof(two_words) / sizeof(two_words[0]); i++) {
			struct slt_span r2 = rest;
			if (strcmp(label, two_words[i].a) == 0 && slt_tok_next(&r2, &t2) &&
			    slt_span_eq(t2, two_words[i].b)) {
				snprintf(label, sizeof(label), "%s %s", two_words[i].a,
					 two_words[i].b);
				t.n = (size_t)(t2.p + t2.n - t.p);
				rest = r2;
				break;
			}
		}
		size_t end = col_of(line, t.p) + t.n;
		enum col k = C_UNKNOWN;
		if (!seen_num) {
			if (strcmp(label, "Num") == 0)
				seen_num = true;
			continue;
		}
		if (!after_offset) {
			if (strcmp(label, "Offset") == 0) {
				after_offset = true;
				continue;
			}
			bool peer = has_group(gr, gn, ng, end, "Peer");
			if (!strcmp(label, "RmtHitm"))
				k = C_HITM_R;
			else if (!strcmp(label, "LclHitm"))
				k = C_HITM_L;
			else if (!strcmp(label, "Rmt"))
				k = peer ? C_PEER_R : C_HITM_R;
			else if (!strcmp(label, "Lcl"))
				k = peer ? C_PEER_L : C_HITM_L;
			else if (!strcmp(label, "Peer"))
				k = C_PEER_L;  /* arm64 SPE v1: one unsplit peer column */
			else if (!strcmp(label, "L1 Hit"))
				k = C_ST_HIT;
			else if (!strcmp(label, "L1 Miss"))
				k = C_ST_MISS;
			else if (!strcmp(label, "N/A") || !strcmp(label, "Any Lvl"))
				k = C_ST_NA;
			if (c->n_pct >= MAX_COLS)
				return false;
			c->pct[c->n_pct++] = k;
			continue;
		}
		if (!strncmp(label, "Node", 4) && after_sym) {
			if (strstr(label, "{cpu") && slt_span_contains(rest, "list"))
				k = C_NODES_LIST;
			else if (strchr(label, '{'))
				k = C_NODES_CNT;
			else
				k = C_NODES;
			rest.n = 0;  /* the node column is the rest of the line */
		} else if (!strcmp(label, "Node")) {
			k = C_DNODE;
		} else if (!strcmp(label, "PA cnt")) {
			k = C_PACNT;
		} else if (!strcmp(label, "Pid")) {
			k = C_PID;
		} else if (!strcmp(label, "Tid")) {
			k = C_TID;
		} else if (!strcmp(label, "Code address")) {
			k = C_IADDR;
		} else if (!strcmp(label, "rmt hitm")) {
			k = C_CY_HITM_R;
		} else if (!strcmp(label, "lcl hitm")) {
			k = C_CY_HITM_L;
		} else if (!strcmp(label, "rmt peer")) {
			k = C_CY_PEER_R;
		} else if (!strcmp(label, "lcl peer") || !strcmp(label, "peer")) {
			k = C_CY_PEER_L;
		} else if (!strcmp(label, "load")) {
			k = C_CY_LOAD;
		} else if (!strcmp(label, "records")) {
			k = C_RECORDS;
		} else if (!strcmp(label, "cnt")) {
			k = C_CPUCNT;
		} else if (!strcmp(label, "Symbol")) {
			k = C_SYM;
			after_sym = true;
		} else if (!strcmp(label, "Object")) {
			k = C_OBJ;
		} else if (!strcmp(label, "Source:Line")) {
			k = C_SRC;
		}
		if (c->n_rest >= MAX_COLS)
			return false;
		c->rest[c->n_rest++] = k;
	}
	return seen_num && after_offset && c->n_pct > 0;
}

/* "0{0-1,4}  1{24-25,120}", "0{ 1 n/a 100.0%}", "0  1  2  3" */
static void parse_nodes(struct c2c *c, struct slt_span s, enum col kind,
			struct slt_sample *o)
{
	size_t i = 0, ncpu = 0;
	int64_t node = -1;
	bool many = false;
	while (i < s.n) {
		if (s.p[i] < '0' || s.p[i] > '9') {
			i++;
			continue;
		}
		uint64_t v = 0;
		while (i < s.n && s.p[i] >= '0' && s.p[i] <= '9') {
			if (v < 1000000)
				v = v * 10 + (uint64_t)(s.p[i] - '0');
			i++;
		}
		if (node < 0)
			node = (int64_t)v;
		else if ((uint64_t)node != v)
			many = true;
		if (i < s.n && s.p[i] == '{') {
			size_t close = i;
			while (close < s.n && s.p[close] != '}')
				close++;
			if (kind == C_NODES_LIST) {
				/* a,b-c,... */
				size_t j = i + 1;
				while (j < close) {
					uint64_t a = 0, b;
					bool ok = false;
					while (j < close && s.p[j] >= '0' && s.p[j] <= '9') {
						if (a < 1000000)
							a = a * 10 + (uint64_t)(s.p[j] - '0');
						j++;
						ok = true;
					}
					b = a;
					if (ok && j < close && s.p[j] == '-') {
						j++;
						b = 0;
						while (j < close && s.p[j] >= '0' && s.p[j] <= '9') {
							if (b < 1000000)
								b = b * 10 + (uint64_t)(s.p[j] - '0');
							j++;
						}
					}
					if (ok)
						for (uint64_t x = a; x <= b && x <= UINT16_MAX &&
						     ncpu < MAX_CPUS; x++)
							c->cpus[ncpu++] = (uint16_t)x;
					while (j < close && (s.p[j] < '0' || s.p[j] > '9'))
						j++;
				}
			}
			i = close < s.n ? close + 1 : s.n;
		}
	}
	if (node >= 0 && !many && node <= INT32_MAX)
		o->node = (int32_t)node;
	if (kind == C_NODES_LIST && ncpu) {
		o->flags |= SLT_SAMPLE_CPUS;
		o->cpus = c->cpus;
		o->n_cpus = ncpu;
	}
}

static void copy_tok(struct slt_span t, char *buf, size_t n)
{
	slt_span_copy(t, buf, n);
}

/* One Pareto row.  Returns 1 when emitted, 0 when skipped, or the
 * callback's value (as rc, with *stop set). */
static int parse_row(struct c2c *c, struct slt_span line, bool *stop)
{
	struct slt_sample o;
	memset(&o, 0, sizeof(o));
	o.cpu = o.pid = o.tid = o.node = -1;
	o.flags = SLT_SAMPLE_LINE;
	o.line_addr = c->line_addr;
	struct slt_span rest = line, t;
	uint64_t hitm_r = 0, hitm_l = 0, peer_r = 0, peer_l = 0, stores = 0;
	for (size_t i = 0; i < c->n_pct; i++) {
		uint32_t centi;
		if (!slt_tok_next(&rest, &t) || !slt_parse_pct(t, true, &centi))
			return 0;
		uint64_t n = slt_pct_of(centi, c->totals[i]);
		switch (c->pct[i]) {
		case C_HITM_R: hitm_r = slt_sat_add(hitm_r, n); break;
		case C_HITM_L: hitm_l = slt_sat_add(hitm_l, n); break;
		case C_PEER_R: peer_r = slt_sat_add(peer_r, n); break;
		case C_PEER_L: peer_l = slt_sat_add(peer_l, n); break;
		case C_ST_HIT: case C_ST_MISS: case C_ST_NA:
			stores = slt_sat_add(stores, n); break;
		default: break;
		}
	}
	uint64_t off;
	if (!slt_tok_next(&rest, &t) || !slt_parse_hex(t, &off) || off > UINT32_MAX)
		return 0;
	o.line_offset = (uint32_t)off;
	uint64_t cy[C_NODES_LIST + 1] = { 0 };
	bool have_records = false;
	uint64_t records = 0, v;
	c->sym[0] = c->obj[0] = c->src[0] = '\0';
	for (size_t i = 0; i < c->n_rest; i++) {
		enum col k = c->rest[i];
		if (k == C_NODES || k == C_NODES_CNT || k == C_NODES_LIST) {
			c->rows_nodes |= k == C_NODES;
			c->rows_node_cnt |= k == C_NODES_CNT;
			c->rows_cpu_list |= k == C_NODES_LIST;
			parse_nodes(c, slt_span_trim(rest), k, &o);
			rest.n = 0;
			break;
		}
		if (!slt_tok_next(&rest, &t)) {
			/* a row ends early only when the trailing columns are empty */
			if (k == C_SYM || k == C_OBJ || k == C_SRC)
				break;
			return 0;
		}
		switch (k) {
		case C_PID:
			if (!slt_parse_u64(t, &v) || v > INT32_MAX)
				return 0;
			o.pid = (int32_t)v;
			o.flags |= SLT_SAMPLE_TID;
			break;
		case C_TID: {
			struct slt_span d = t;
			for (d.n = 0; d.n < t.n && t.p[d.n] != ':'; d.n++)
				;
			if (!slt_parse_u64(d, &v) || v > INT32_MAX)
				return 0;
			o.tid = (int32_t)v;
			o.flags |= SLT_SAMPLE_TID;
			break;
		}
		case C_IADDR:
			if (!slt_parse_hex(t, &o.ip))
				return 0;
			o.flags |= SLT_SAMPLE_IP;
			break;
		case C_CY_HITM_R: case C_CY_HITM_L: case C_CY_PEER_R:
		case C_CY_PEER_L: case C_CY_LOAD:
			if (!slt_parse_u64(t, &cy[k]))
				return 0;
			break;
		case C_RECORDS:
			if (!slt_parse_u64(t, &records))
				return 0;
			have_records = true;
			break;
		case C_CPUCNT:
			if (!slt_parse_u64(t, &v))
				return 0;
			o.cpu_count = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
			break;
		case C_SYM:
			/* "[.] name" / "[k] name": the marker, then the name */
			if (t.n == 3 && t.p[0] == '[' && t.p[2] == ']') {
				struct slt_span r2 = rest, t2;
				if (slt_tok_next(&r2, &t2)) {
					t = t2;
					rest = r2;
				}
			}
			copy_tok(t, c->sym, sizeof(c->sym));
			o.symbol = c->sym;
			break;
		case C_OBJ:
			copy_tok(t, c->obj, sizeof(c->obj));
			o.object = c->obj;
			break;
		case C_SRC:
			copy_tok(t, c->src, sizeof(c->src));
			o.source = c->src;
			break;
		default:
			break;  /* Node (data), PA cnt, unknown: one token each */
		}
	}
	uint64_t special = slt_sat_add(slt_sat_add(hitm_r, hitm_l),
				       slt_sat_add(peer_r, peer_l));
	uint64_t loads = special;
	if (have_records && records > stores && records - stores > loads)
		loads = records - stores;
	struct slt_samples_info *in = c->pc->info;
	if (have_records && slt_sat_add(stores, special) > records && !in->c2c_fixed_rows++) {
		/* perf counts every sample of the row in records: this row
		 * contradicts itself; said once, never silently */
		in->c2c_fixed_line = c->row_line;
		in->c2c_fixed_records = records;
		in->c2c_fixed_stores = stores;
		in->c2c_fixed_special = special;
	}
	o.loads = loads;
	o.stores = stores;
	o.hitm_remote = hitm_r;
	o.hitm_local = hitm_l;
	o.peer_remote = peer_r;
	o.peer_local = peer_l;
	uint64_t cyc = slt_sat_mul(cy[C_CY_HITM_R], hitm_r);
	cyc = slt_sat_add(cyc, slt_sat_mul(cy[C_CY_HITM_L], hitm_l));
	cyc = slt_sat_add(cyc, slt_sat_mul(cy[C_CY_PEER_R], peer_r));
	cyc = slt_sat_add(cyc, slt_sat_mul(cy[C_CY_PEER_L], peer_l));
	if (have_records)
		cyc = slt_sat_add(cyc, slt_sat_mul(cy[C_CY_LOAD], loads - special));
	o.cycles = cyc;
	if (off >= 64)
		c->any_high_offset = true;
	struct slt_samples_info *info = c->pc->info;
	info->records++;
	info->samples = slt_sat_add(info->samples, slt_sat_add(loads, stores));
	int rc = c->pc->cb(c->pc->cb_ctx, &o);
	if (rc) {
		*stop = true;
		return rc;
	}
	return 1;
}

/* Remember addr; true when it was seen before.  -1: out of memory (then
 * repeats are not detected, nothing else changes). */
static int seen_before(struct c2c *c, uint64_t addr)
{
	if (addr == 0) {
		bool was = c->seen_zero;
		c->seen_zero = true;
		return was;
	}
	if (c->seen_n * 2 >= c->seen_cap) {
		size_t ncap = c->seen_cap ? c->seen_cap * 2 : 256;
		uint64_t *n = calloc(ncap, sizeof(*n));
		if (!n)
			return -1;
		for (size_t i = 0; i < c->seen_cap; i++) {
			if (!c->seen[i])
				continue;
			size_t k = (size_t)((c->seen[i] >> 6) * 0x9e3779b97f4a7c15ULL) & (ncap - 1);
			while (n[k])
				k = (k + 1) & (ncap - 1);
			n[k] = c->seen[i];
		}
		free(c->seen);
		c->seen = n;
		c->seen_cap = ncap;
	}
	size_t k = (size_t)((addr >> 6) * 0x9e3779b97f4a7c15ULL) & (c->seen_cap - 1);
	while (c->seen[k]) {
		if (c->seen[k] == addr)
			return 1;
		k = (k + 1) & (c->seen_cap - 1);
	}
	c->seen[k] = addr;
	c->seen_n++;
	return 0;
}

/* "Num <totals...> 0xADDR" */
static bool parse_block_header(struct c2c *c, struct slt_span line)
{
	struct slt_span rest = line, t;
	uint64_t v;
	if (!slt_tok_next(&rest, &t) || !slt_parse_u64(t, &v))
		return false;
	for (size_t i = 0; i < c->n_pct; i++)
		if (!slt_tok_next(&rest, &t) || !slt_parse_u64(t, &c->totals[i]))
			return false;
	if (!slt_tok_next(&rest, &t) || !slt_parse_hex(t, &c->line_addr))
		return false;
	if (slt_tok_next(&rest, &t))
		return false;
	if (c->line_addr & 127)
		c->any_unaligned128 = true;
	return true;
}

/* "  Key   :   value" lines of the Trace Event Information / c2c details */
static void parse_keyval(struct c2c *c, struct slt_span line)
{
	const char *colon = memchr(line.p, ':', line.n);
	if (!colon)
		return;
	struct slt_span key = slt_span_trim((struct slt_span){ line.p,
		(size_t)(colon - line.p) });
	struct slt_span val = slt_span_trim((struct slt_span){ colon + 1,
		line.n - (size_t)(colon + 1 - line.p) });
	static const struct { const char *k; size_t off; } nums[] = {
		{ "Total records", offsetof(struct c2c, t_records) },
		{ "Load Operations", offsetof(struct c2c, t_loads) },
		{ "Store Operations", offsetof(struct c2c, t_stores) },
		{ "Load Local HITM", offsetof(struct c2c, t_lhitm) },
		{ "Load Remote HITM", offsetof(struct c2c, t_rhitm) },
		{ "Load HIT Local Peer", offsetof(struct c2c, t_lpeer) },
		{ "Load HIT Remote Peer", offsetof(struct c2c, t_rpeer) },
	};
	if (key.n == 0 && c->in_events) {
		size_t l = strlen(c->events);
		if (l + 2 < sizeof(c->events)) {
			c->events[l] = ' ';
			slt_span_copy(val, c->events + l + 1, sizeof(c->events) - l - 1);
		}
		return;
	}
	c->in_events = false;
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		if (slt_span_eq(key, nums[i].k)) {
			uint64_t v;
			if (slt_parse_u64(val, &v))
				*(uint64_t *)((char *)c + nums[i].off) = v;
			c->seen_c2c = true;
			return;
		}
	if (slt_span_eq(key, "Events")) {
		slt_span_copy(val, c->events, sizeof(c->events));
		c->in_events = true;
	} else if (slt_span_eq(key, "Cachelines sort on")) {
		slt_span_copy(val, c->sort, sizeof(c->sort));
	} else if (slt_span_starts(key, "Cacheline data group")) {
		slt_span_copy(val, c->grouping, sizeof(c->grouping));
	}
}

int slt_c2c_detect(const unsigned char *head, size_t n)
{
	struct slt_span s = { (const char *)head, n };
	if (slt_span_contains(s, "Shared Cache Line Distribution Pareto") ||
	    slt_span_contains(s, "Shared Data Cache Line Table"))
		return 90;
	if (slt_span_contains(s, "Trace Event Information"))
		return 80;
	if (slt_span_contains(s, "Num  RmtHitm") || slt_span_contains(s, "----- HITM -----"))
		return 60;
	return slt_c2c_headless_detect(head, n);
}

static const char NO_BLOCK_LINE[] =
	"no block header line (\"Num <totals> 0xLINE\") above the rows";

/* A Pareto row before any header line: the columns recognised from it
 * and the block header above it (c2c_infer.c), or why not. */
static void headless_row(struct c2c *c, struct slt_span row, unsigned line)
{
	/* a Pareto row's percentages are followed by the data Offset (perf
	 * mem report's rows start with percentages too) */
	struct slt_span r = row, t = { NULL, 0 };
	uint32_t centi;
	uint64_t off;
	while (slt_tok_next(&r, &t) && slt_parse_pct(t, true, &centi))
		;
	if (!t.n || !slt_parse_hex(t, &off))
		return;
	const char *why = NO_BLOCK_LINE;
	if (c->pending.n &&
	    slt_c2c_infer(c->pending, row, c->pct, &c->n_pct, c->rest, &c->n_rest, &why) &&
	    parse_block_header(c, c->pending)) {
		c->have_header = c->have_block = c->inferred = c->seen_c2c = true;
		c->repeat_block = seen_before(c, c->line_addr) == 1;
		c->blocks++;
		return;
	}
	c->headless++;
	if (!c->infer_why) {
		c->infer_why = why;
		c->infer_line = line;
	}
}

int slt_c2c_parse(const struct slt_parse_ctx *pc, const unsigned char *data,
		  size_t size)
{
	static _Thread_local struct c2c c;  /* 8 KiB of scratch: not on the stack */
	memset(&c, 0, sizeof(c));
	c.pc = pc;
	struct slt_text tx;
	struct slt_span line, prev = { NULL, 0 };
	slt_text_init(&tx, data, size);
	bool in_table = false, stop = false;
	int rc = 0;
	while (!stop && slt_text_next(&tx, &line, NULL)) {
		struct slt_span tl = slt_span_trim(line);
		if (tl.n == 0) {
			prev = tl;
			continue;
		}
		if (tl.p[0] == '#') {
			struct slt_span body = { tl.p + 1, tl.n - 1 };
			if (slt_span_contains(body, "Num") && slt_span_contains(body, "Offset")) {
				/* group line: the previous '#' line; both are
				 * measured in columns from their own line start */
				struct slt_span g = prev;
				struct slt_span hl = line;
				if (g.n && slt_span_trim(g).p[0] != '#')
					g.n = 0;
				c.have_header = parse_header(&c, hl, g.n ? g : (struct slt_span){ 0 });
				c.have_block = false;
				c.seen_c2c |= c.have_header;
				in_table = false;
			} else if (slt_span_contains(body, "Index")) {
				in_table = true;
				c.seen_c2c = true;
			}
			prev = line;
			continue;
		}
		prev = line;
		if (tl.p[0] == '-') {
			continue;  /* block separators */
		}
		if (tl.p[0] == '=' || slt_span_contains(tl, "Shared Cache Line Distribution")) {
			in_table = false;
			continue;
		}
		if (in_table) {
			struct slt_span r = tl, t;
			uint64_t v, a;
			if (slt_tok_next(&r, &t) && slt_parse_u64(t, &v) &&
			    slt_tok_next(&r, &t) && slt_parse_hex(t, &a)) {
				c.table_lines++;
				if (a & 127)
					c.any_unaligned128 = true;
				continue;
			}
			in_table = false;
		}
		if (!c.have_header && slt_c2c_block_line(tl)) {
			c.pending = tl;   /* columns from its first row */
			continue;
		}
		if (tl.p[0] >= '0' && tl.p[0] <= '9' && tl.p[tl.n - 1] != '%' &&
		    c.have_header && !memchr(tl.p, '%', tl.n) && !memchr(tl.p, ':', tl.n)) {
			if (parse_block_header(&c, tl)) {
				c.have_block = true;
				c.repeat_block = seen_before(&c, c.line_addr) == 1;
				if (c.repeat_block)
					c.repeat_blocks++;
				else
					c.blocks++;
				continue;
			}
		}
		/* a Pareto row starts with a percentage */
		struct slt_span r = tl, t;
		uint32_t centi;
		if (slt_tok_next(&r, &t) && slt_parse_pct(t, true, &centi)) {
			if (!c.have_header)
				headless_row(&c, tl, tx.line);
			if (!c.have_header || !c.have_block || c.repeat_block) {
				pc->info->skipped++;
				continue;
			}
			c.row_line = tx.line;
			int x = parse_row(&c, tl, &stop);
			if (stop) {
				rc = x;
			} else if (x == 0) {   /* malformed: never lost silently */
				pc->info->skipped++;
				if (!pc->info->c2c_bad_rows++)
					pc->info->c2c_bad_line = tx.line;
			}
			continue;
		}
		parse_keyval(&c, line);
	}
	struct slt_samples_info *info = pc->info;
	if (c.any_high_offset)
		info->cacheline_size = 128;
	else if (c.any_unaligned128)
		info->cacheline_size = 64;
	free(c.seen);
	c.seen = NULL;
	snprintf(info->detail, sizeof(info->detail),
		 "perf c2c: %u table lines, %u Pareto blocks (%u repeated blocks "
		 "skipped); records %llu, loads %llu, "
		 "stores %llu, HITM lcl %llu rmt %llu, peer lcl %llu rmt %llu; "
		 "events %s; sort %s; grouping %s",
		 c.table_lines, c.blocks, c.repeat_blocks, (unsigned long long)c.t_records,
		 (unsigned long long)c.t_loads, (unsigned long long)c.t_stores,
		 (unsigned long long)c.t_lhitm, (unsigned long long)c.t_rhitm,
		 (unsigned long long)c.t_lpeer, (unsigned long long)c.t_rpeer,
		 c.events[0] ? c.events : "?", c.sort[0] ? c.sort : "?",
		 c.grouping[0] ? c.grouping : "?");
	/* rows that name nodes but not CPUs: the caller says which report
	 * option gives the CPUs */
	if (!c.rows_cpu_list)
		info->c2c_node_info = c.rows_node_cnt ? 2 : c.rows_nodes ? 1 : 0;
	if (c.inferred) {
		info->c2c_inferred = (unsigned)c.n_pct;
		size_t l = strlen(info->detail);
		snprintf(info->detail + l, sizeof(info->detail) - l,
			 "; no header lines: columns recognised from the rows (%zu "
			 "percentage columns read as HITM, then stores)", c.n_pct);
	}
	if (rc)
		return rc;
	/* rows without the block line above them: the line address is
	 * missing, which no header line gives */
	if (!c.seen_c2c && c.infer_why == NO_BLOCK_LINE)
		return slt_error_set_line(pc->err, SLT_EUSAGE, pc->name, c.infer_line,
					  "paste each block whole, as perf c2c report --stdio prints it "
					  "under \"Shared Cache Line Distribution Pareto\": the cacheline "
					  "line (\"      0  <totals>  0xLINE\" between dashed lines) above its "
					  "rows, and best the two '#' column-header lines above the first block",
					  "perf c2c Pareto rows without their block header: no cacheline line "
					  "(\"Num <totals> 0xLINE\") above the rows gives the cache line they "
					  "are offsets in, and no '#' header line names their columns");
	if (!c.seen_c2c && c.infer_why)
		return slt_error_set_line(pc->err, SLT_EUSAGE, pc->name, c.infer_line,
					  "paste the two '#' lines perf c2c report --stdio prints above the "
					  "first block: the column groups (\"#        ----- HITM -----  "
					  "------- Store Refs ------  ...\") and the column names (\"#   Num  "
					  "RmtHitm  LclHitm   L1 Hit  L1 Miss ...  Offset ...  Code address ...\")",
					  "perf c2c Pareto rows without their header lines, and their columns "
					  "cannot be recognised from the rows: %s", c.infer_why);
	if (!c.seen_c2c)
		return slt_error_set_line(pc->err, SLT_EUSAGE, pc->name, tx.line ? 1 : 0,
					  "pass the output of perf c2c report --stdio",
					  "no perf c2c report content found");
	return 0;
}
