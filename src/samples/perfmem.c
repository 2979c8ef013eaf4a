/* SPDX-License-Identifier: MIT */
/*
 * `perf mem report --stdio` and `perf report --mem-mode --stdio` tables
 * (tools/perf/Documentation/perf-mem.txt, perf-report.txt "--mem-mode";
 * the column headers are the sort keys' names in tools/perf/util/sort.c:
 * "Overhead", "Samples", "Local Weight", "Memory access", "Symbol",
 * "Shared Object", "Data Symbol", "Data Object", "Snoop", "TLB access",
 * "Locked", "Data Cacheline", "CPU", ...).
 *
 * One table per "# Samples: N of event 'E'" block.  Columns are located by
 * the header line and the dotted line under it: every run of dots is one
 * column, its name is the header text above that run, and a row's value
 * is the text in the same character range (perf sizes every column to its
 * widest entry, so rows line up with the dots).  A row whose text crosses
 * a column boundary is not aligned (mangled excerpt) and is skipped and
 * counted.  Column order and the set of columns do not matter.
 *
 * What a row becomes (one record per row):
 *  - "Data Symbol" "[.] g_hot+0x18": SLT_SAMPLE_DSYM, data_symbol "g_hot",
 *    data_symbol_offset 0x18 (perf prints "+0x<offset>" from the start of
 *    an STT_OBJECT symbol); "[.] 0x7ffd1234" (no symbol): SLT_SAMPLE_ADDR.
 *    A row without either is counted in info->skipped: it says nothing
 *    about where the access went.
 *  - loads or stores from the event name (slt_perf_event_is_store(): the
 *    table does not say per row).
 *  - count: the "Samples" column (perf mem report, perf report -n); else
 *    round(Overhead x N / 100) with N from "# Samples: N" (datatype.c's
 *    slt_perf_samples_header()), an estimate: perf's Overhead is a share of
 *    the period (with perf mem's weight-sorted tables often of the weight),
 *    not of the samples, and info->detail says the counts are estimated.
 *  - Snoop "HitM" -> hitm_remote when "Memory access" names a remote level
 *    ("Remote Cache (1 hop) hit", "Remote RAM ..."), else hitm_local;
 *    "Peer" likewise -> peer_*.
 *  - "Local Weight" is one sample's weight (entries are grouped by it; the
 *    block's "Total weight" is the sum of weight x samples): loads get
 *    cycles = weight x count.
 *  - "Symbol" -> symbol (the code), "Shared Object" -> object, "CPU" -> cpu.
 *
 * A file with no row that places an access (perf mem report -s mem: levels
 * only; perf report --header-only of a perf mem recording: event names only)
 * is read to the end and then refused with SLT_EUSAGE naming the perf
 * command that prints per-address data.
 */
#include "samples/parsers.h"
#include "samples/text.h"

#include <stdio.h>
#include <string.h>

enum pm_col {
	P_OTHER = 0,
	P_OVERHEAD, P_SAMPLES, P_LWEIGHT, P_MEM, P_SYM, P_DSO, P_DSYM, P_SNOOP,
	P_CPU,
};

static const struct { const char *name; enum pm_col col; } col_names[] = {
	{ "Overhead", P_OVERHEAD }, { "Self", P_OVERHEAD },
	{ "Samples", P_SAMPLES }, { "Local Weight", P_LWEIGHT },
	{ "Memory access", P_MEM }, { "Symbol", P_SYM },
	{ "Shared Object", P_DSO }, { "Data Symbol", P_DSYM },
	{ "Snoop", P_SNOOP }, { "CPU", P_CPU },
};

/* Headers that only perf's memory sort keys print: a table with one of
 * them is a perf mem table. */
static const char *const mem_headers[] = {
	"Memory access", "Data Symbol", "Snoop", "Data Cacheline", "Local Weight",
	"TLB access", "Data Object",
};

#define MAX_COLS 40

struct pm {
	const struct slt_parse_ctx *pc;
	uint64_t total;              /* samples of the block, 0 unknown */
	char event[128];
	bool stores;
	struct { size_t b, e; enum pm_col col; } cols[MAX_COLS];
	size_t n_cols;
	bool have_cols, have_dsym_col;
	struct slt_span header;      /* pending "# Overhead ..." line */
	unsigned header_line;        /* first table header, for messages */
	unsigned blocks, tables, rows, placed, estimated, no_place, no_count;
	unsigned header_events;      /* "# event : name = <mem event>" lines */
	char first_event[96];
	char sort[160];
	char sym[256], obj[256], dsym[256];
};

static struct slt_span sub(struct slt_span line, size_t b, size_t e)
{
	if (b > line.n)
		b = line.n;
	if (e > line.n)
		e = line.n;
	return (struct slt_span){ line.p + b, e - b };
}

/* Columns from the header line and the dotted line under it. */
static void set_columns(struct pm *m, struct slt_span dots)
{
	m->n_cols = 0;
	for (size_t i = 0; i < dots.n && m->n_cols < MAX_COLS;) {
		if (dots.p[i] != '.') {
			i++;
			continue;
		}
		size_t j = i;
		while (j < dots.n && dots.p[j] == '.')
			j++;
		m->cols[m->n_cols].b = i;
		m->cols[m->n_cols].e = j;
		m->cols[m->n_cols].col = P_OTHER;
		m->n_cols++;
		i = j;
	}
	for (size_t k = 0; k < m->n_cols; k++) {
		size_t e = k + 1 < m->n_cols ? m->cols[k + 1].b : m->header.n;
		struct slt_span name = slt_span_trim(sub(m->header, m->cols[k].b, e));
		for (size_t c = 0; c < sizeof(col_names) / sizeof(col_names[0]); c++)
			if (slt_span_eq(name, col_names[c].name)) {
				m->cols[k].col = col_names[c].col;
				break;
			}
		if (m->cols[k].col == P_DSYM)
			m->have_dsym_col = true;
	}
	m->have_cols = m->n_cols > 0;
	m->tables++;
}

/* Value of column k in row, trimmed; false when the row's text runs across
 * the column's start (the row does not line up with the header). */
static bool value(const struct pm *m, struct slt_span row, size_t k,
		  struct slt_span *out)
{
	size_t b = m->cols[k].b;
	size_t e = k + 1 < m->n_cols ? m->cols[k + 1].b : row.n;
	if (b > 0 && b < row.n && !slt_text_isspace(row.p[b - 1]) &&
	    !slt_text_isspace(row.p[b]))
		return false;
	*out = slt_span_trim(sub(row, b, e));
	return true;
}

/* Drop perf's symbol level marker "[.] ", "[k] ", "[g] " ... */
static struct slt_span strip_level(struct slt_span s)
{
	if (s.n >= 3 && s.p[0] == '[' && s.p[2] == ']')
		return slt_span_trim((struct slt_span){ s.p + 3, s.n - 3 });
	return s;
}

/* "[.] g_hot+0x18" -> DSYM, "[.] 0x7ffd..." -> ADDR.  false: neither. */
static bool data_place(struct pm *m, struct slt_span v, struct slt_sample *o)
{
	v = strip_level(v);
	if (!v.n || slt_span_eq(v, "N/A") || slt_span_eq(v, "-"))
		return false;
	uint64_t x;
	if (slt_parse_hex(v, &x)) {
		o->flags |= SLT_SAMPLE_ADDR;
		o->addr = x;
		return true;
	}
	uint64_t off = 0;
	size_t n = v.n;
	for (size_t i = v.n; i-- > 1;)
		if (v.p[i] == '+') {
			struct slt_span t = { v.p + i + 1, v.n - i - 1 };
			if (slt_parse_hex(t, &off))
				n = i;
			break;
		}
	struct slt_span name = slt_span_trim((struct slt_span){ v.p, n });
	for (size_t i = 0; i < name.n; i++)
		if (slt_text_isspace(name.p[i]))
			return false;  /* not one symbol */
	if (!name.n)
		return false;
	slt_span_copy(name, m->dsym, sizeof(m->dsym));
	o->flags |= SLT_SAMPLE_DSYM;
	o->data_symbol = m->dsym;
	o->data_symbol_offset = off;
	return true;
}

/* One table row.  Returns the callback's value (0 go on). */
static int row(struct pm *m, struct slt_span line)
{
	struct slt_span v;
	uint32_t centi = 0;
	bool have_pct = false;
	size_t k;
	for (k = 0; k < m->n_cols; k++)
		if (m->cols[k].col == P_OVERHEAD)
			break;
	if (k == m->n_cols || !value(m, line, k, &v))
		return 0;
	struct slt_span r = v, t;
	if (!slt_tok_next(&r, &t) || !slt_parse_pct(t, true, &centi))
		return 0;  /* not a row (a tip, a prompt) */
	have_pct = true;
	m->rows++;

	struct slt_sample o;
	memset(&o, 0, sizeof(o));
	o.cpu = o.pid = o.tid = o.node = -1;
	uint64_t cnt = 0, weight = 0;
	bool have_cnt = false, have_weight = false, remote = false, hitm = false,
	     peer = false, placed = false;
	m->sym[0] = m->obj[0] = '\0';
	for (k = 0; k < m->n_cols; k++) {
		if (m->cols[k].col == P_OTHER || m->cols[k].col == P_OVERHEAD)
			continue;
		if (!value(m, line, k, &v)) {
			m->pc->info->skipped++;
			return 0;
		}
		switch (m->cols[k].col) {
		case P_SAMPLES:
			have_cnt = slt_parse_u64(v, &cnt);
			break;
		case P_LWEIGHT:
			have_weight = slt_parse_u64(v, &weight);
			break;
		case P_MEM:
			remote = slt_span_contains(v, "Remote");
			break;
		case P_SNOOP:
			hitm = slt_span_contains(v, "HitM");
			peer = slt_span_contains(v, "Peer");
			break;
		case P_SYM:
			slt_span_copy(strip_level(v), m->sym, sizeof(m->sym));
			break;
		case P_DSO:
			slt_span_copy(v, m->obj, sizeof(m->obj));
			break;
		case P_DSYM:
			placed = data_place(m, v, &o);
			break;
		case P_CPU: {
			uint64_t c;
			if (slt_parse_u64(v, &c) && c < INT32_MAX) {
				o.cpu = (int32_t)c;
				o.flags |= SLT_SAMPLE_CPU;
			}
			break;
		}
		default:
			break;
		}
	}
	if (!placed) {
		m->no_place++;
		m->pc->info->skipped++;
		return 0;
	}
	if (!have_cnt) {
		if (!have_pct || !m->total) {
			m->no_count++;
			m->pc->info->skipped++;
			return 0;
		}
		cnt = slt_pct_of(centi, m->total);
		if (!cnt)
			cnt = 1;  /* a printed row has a sample */
		m->estimated++;
	}
	if (!cnt)
		return 0;
	if (m->stores) {
		o.stores = cnt;
	} else {
		o.loads = cnt;
		if (have_weight)
			o.cycles = slt_sat_mul(weight, cnt);
		if (hitm)
			*(remote ? &o.hitm_remote : &o.hitm_local) = cnt;
		else if (peer)
			*(remote ? &o.peer_remote : &o.peer_local) = cnt;
	}
	o.symbol = m->sym[0] ? m->sym : NULL;
	o.object = m->obj[0] ? m->obj : NULL;
	o.event = m->event[0] ? m->event : NULL;
	m->placed++;
	m->pc->info->records++;
	m->pc->info->samples = slt_sat_add(m->pc->info->samples, cnt);
	return m->pc->cb(m->pc->cb_ctx, &o);
}

/* "event : name = cpu_atom/mem-loads,ldlat=30/P, , id = ..." */
static bool is_mem_event(struct slt_span s)
{
	return slt_span_contains(s, "mem-loads") || slt_span_contains(s, "mem-stores") ||
	       slt_span_contains(s, "ibs_op") || slt_span_contains(s, "arm_spe");
}

static void header_event(struct pm *m, struct slt_span body)
{
	const char *eq = memchr(body.p, '=', body.n);
	if (!eq)
		return;
	struct slt_span v = slt_span_trim((struct slt_span){ eq + 1,
		body.n - (size_t)(eq + 1 - body.p) });
	size_t n = 0;
	while (n < v.n && !(v.p[n] == ',' && (n + 1 == v.n || v.p[n + 1] == ' ')))
		n++;
	v.n = n;
	if (!is_mem_event(v))
		return;
	if (!m->header_events++)
		slt_span_copy(v, m->first_event, sizeof(m->first_event));
}

static bool is_dots(struct slt_span s)
{
	bool any = false;
	for (size_t i = 0; i < s.n; i++) {
		if (s.p[i] == '.')
			any = true;
		else if (!slt_text_isspace(s.p[i]))
			return false;
	}
	return any;
}

/* A '#' line: "# Overhead ..." header naming a memory column? */
static bool mem_header(struct slt_span body)
{
	if (!slt_span_starts(body, "Overhead") && !slt_span_starts(body, "Self") &&
	    !slt_span_starts(body, "Children"))
		return false;
	for (size_t i = 0; i < sizeof(mem_headers) / sizeof(mem_headers[0]); i++)
		if (slt_span_contains(body, mem_headers[i]))
			return true;
	return false;
}

int slt_perfmem_detect(const unsigned char *head, size_t n)
{
	struct slt_text tx;
	struct slt_span line;
	bool header_only = false;
	slt_text_init(&tx, head, n);
	while (slt_text_next(&tx, &line, NULL)) {
		struct slt_span tl = slt_span_trim(line);
		if (!tl.n || tl.p[0] != '#')
			continue;
		struct slt_span body = slt_span_trim((struct slt_span){ tl.p + 1, tl.n - 1 });
		if (mem_header(body))
			return 75;
		if (slt_span_starts(body, "event : name =") && is_mem_event(body))
			header_only = true;
	}
	return header_only ? 30 : 0;
}

static int no_data_error(struct pm *m)
{
	const struct slt_parse_ctx *pc = m->pc;
	if (m->rows && !m->have_dsym_col)
		return slt_error_set_line(pc->err, SLT_EUSAGE, pc->name, m->header_line,
			"run perf mem report --stdio with its default sort keys (they include "
			"symbol_daddr, the Data Symbol column) or add symbol_daddr to -s; or pass "
			"perf c2c report --stdio, perf script -F ip,sym,addr,data_src, or the "
			"perf.data itself",
			"perf mem report table without a Data Symbol column (sort keys: %s): "
			"%u rows, no per-address data to join",
			m->sort[0] ? m->sort : "?", m->rows);
	if (m->rows && m->no_count)
		return slt_error_set_line(pc->err, SLT_EUSAGE, pc->name, m->header_line,
			"add the Samples column (perf mem report -n / -F overhead,sample,...) or "
			"keep the '# Samples: N of event' header lines",
			"perf mem report rows give percentages without a sample count: "
			"%u rows cannot be counted", m->no_count);
	if (m->rows)
		return slt_error_set_line(pc->err, SLT_EUSAGE, pc->name, m->header_line,
			"resolve data symbols (perf mem report on the machine that recorded, "
			"with the binaries' symbols) or pass the perf.data itself",
			"perf mem report: none of %u rows names a data symbol or data address",
			m->rows);
	if (m->header_events)
		return slt_error_set_line(pc->err, SLT_EUSAGE, pc->name, 1,
			"run perf mem report --stdio on that recording's perf.data (or pass the "
			"perf.data itself)",
			"perf report --header-only output: names %u perf mem event(s) (%s) but "
			"holds no samples", m->header_events, m->first_event);
	return slt_error_set_line(pc->err, SLT_EUSAGE, pc->name, 1,
		"pass the output of perf mem report --stdio",
		"no perf mem report table found");
}

int slt_perfmem_parse(const struct slt_parse_ctx *pc, const unsigned char *data,
		      size_t size)
{
	static _Thread_local struct pm m;
	memset(&m, 0, sizeof(m));
	m.pc = pc;
	struct slt_text tx;
	struct slt_span line;
	slt_text_init(&tx, data, size);
	int rc = 0;
	while (rc == 0 && slt_text_next(&tx, &line, NULL)) {
		struct slt_span tl = slt_span_trim(line);
		if (!tl.n)
			continue;
		if (tl.p[0] != '#') {
			if (m.have_cols)
				rc = row(&m, line);
			continue;
		}
		struct slt_span body = slt_span_trim((struct slt_span){ tl.p + 1, tl.n - 1 });
		if (slt_span_starts(body, "Samples:")) {
			slt_perf_samples_header(body, &m.total, m.event, sizeof(m.event));
			m.stores = slt_perf_event_is_store(m.event);
			m.have_cols = false;
			m.header.n = 0;
			m.blocks++;
		} else if (slt_span_starts(body, "Sort order")) {
			const char *c = memchr(body.p, ':', body.n);
			if (c)
				slt_span_copy(slt_span_trim((struct slt_span){ c + 1,
					body.n - (size_t)(c + 1 - body.p) }), m.sort, sizeof(m.sort));
		} else if (slt_span_starts(body, "event : name =")) {
			header_event(&m, body);
		} else if (slt_span_starts(body, "Overhead") || slt_span_starts(body, "Self") ||
			   slt_span_starts(body, "Children")) {
			m.header = line;
			m.have_cols = false;
			if (!m.header_line)
				m.header_line = tx.line;
		} else if (m.header.n && !m.have_cols && is_dots(body)) {
			set_columns(&m, line);
		}
	}
	snprintf(pc->info->detail, sizeof(pc->info->detail),
		 "perf mem report: %u blocks, %u tables, %u rows, %u placed (%u counts "
		 "estimated from Overhead x block samples), %u without a data symbol; "
		 "last event %.48s",
		 m.blocks, m.tables, m.rows, m.placed, m.estimated, m.no_place,
		 m.event[0] ? m.event : "?");
	if (rc)
		return rc;
	if (!m.placed)
		return no_data_error(&m);
	return 0;
}
