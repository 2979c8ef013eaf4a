/* SPDX-License-Identifier: MIT */
/*
 * perf data-type profiles (perf >= 6.8; tools/perf/Documentation/
 * perf-report.txt "type", "typeoff", "typecln" sort keys, perf-annotate.txt
 * --data-type):
 *
 *  - `perf report --stdio -s type,typeoff` and `perf mem report -s ...`,
 *    flat or --hierarchy, --group (one percentage per event), TUI fold
 *    markers ('+'/'-'): each "TYPE +OFF (field)" row becomes one
 *    SLT_SAMPLE_TYPE record (OFF decimal or 0x hex).  Type-level rows and
 *    typecln rows ("TYPE: cache-line N") are aggregates of those and are
 *    not emitted; perf's pseudo types "(unknown)", "(stack operation)" are
 *    skipped and counted in info->skipped.
 *  - `perf annotate --data-type`: under "Annotate type: 'T' ... (N
 *    samples):" each leaf field row ("count offset size type name;") with a
 *    non-zero count becomes a record for T at that offset.  Rows ending in
 *    '{' are containers (their counts are sums) and are not emitted.  perf
 *    adds a sample to every member covering its offset, so union
 *    alternatives repeat the same samples: a leaf that starts below the end
 *    of a leaf already emitted for T is a later alternative and is skipped
 *    (not counted: its samples were delivered).
 *
 * Counts: a "Samples" column (perf report -n, perf mem report) or the
 * annotate "samples" column is used as is.  When only percentages are
 * printed, count = round(pct * total / 100) (half up, at least 1 since a
 * printed row has a sample), total from "# Samples: 26K of event ..."
 * (perf's convert_unit() prints value/1000 truncated with 'K', /10^6 'M',
 * /10^9 'G'; we take the middle of that range: 26K -> 26500) or from the
 * annotate header's "(N samples)".  perf report's Overhead is a share of
 * the event's period, not of samples, so such counts are estimates.  With
 * --group the first (leader) percentage is used.  Without any total the
 * row is skipped and counted; when no row at all could be counted for that
 * reason the parse fails (SLT_EUSAGE) saying so and how to get the count.
 *
 * loads/stores: an event whose name contains "mem-stores" (or "stores")
 * makes stores, anything else loads (the data-type profile does not say).
 */
#include "samples/parsers.h"
#include "samples/text.h"

#include <stdio.h>
#include <string.h>

struct dt {
	const struct slt_parse_ctx *pc;
	uint64_t total;          /* samples of the current event, 0 unknown */
	char event[128];
	bool stores, samples_col;
	bool seen;
	/* annotate */
	bool annot, annot_pct, annot_type_known;
	uint64_t annot_total, annot_hw;
	bool annot_any;
	char type[256];
	char rtype[256];         /* type of the current report row */
	unsigned annotated, report_rows;
	unsigned no_total;       /* rows not counted: percentages, no total */
};

static int emit(struct dt *d, const char *type, uint64_t off, uint64_t n,
		bool stores, const char *event)
{
	struct slt_sample o;
	memset(&o, 0, sizeof(o));
	o.flags = SLT_SAMPLE_TYPE;
	o.cpu = o.pid = o.tid = o.node = -1;
	o.type_name = type;
	o.type_offset = off;
	if (stores)
		o.stores = n;
	else
		o.loads = n;
	o.event = event && event[0] ? event : NULL;
	d->pc->info->records++;
	d->pc->info->samples = slt_sat_add(d->pc->info->samples, n);
	return d->pc->cb(d->pc->cb_ctx, &o);
}

/* "26K" / "277" -> estimated count (see the file comment) */
static bool parse_scaled(struct slt_span t, uint64_t *v)
{
	uint64_t mul = 1;
	if (t.n > 1) {
		char u = t.p[t.n - 1];
		if (u == 'K')
			mul = 1000;
		else if (u == 'M')
			mul = 1000000;
		else if (u == 'G')
			mul = 1000000000;
		if (mul > 1)
			t.n--;
	}
	uint64_t x;
	if (!slt_parse_u64(t, &x))
		return false;
	*v = mul > 1 ? slt_sat_add(slt_sat_mul(x, mul), mul / 2) : x;
	return true;
}

void slt_perf_samples_header(struct slt_span body, uint64_t *total, char *event,
			     size_t event_size)
{
	struct slt_span r = body, t;
	slt_tok_next(&r, &t);  /* "Samples:" */
	*total = 0;
	if (slt_tok_next(&r, &t))
		parse_scaled(t, total);
	event[0] = '\0';
	const char *q = memchr(r.p, '\'', r.n);
	if (q) {
		size_t left = r.n - (size_t)(q + 1 - r.p);
		const char *e = q + 1;
		size_t n = 0;
		/* the leader: up to ", " (group) or the closing quote */
		while (n < left && e[n] != '\'' && !(e[n] == ',' && n + 1 < left &&
						   e[n + 1] == ' '))
			n++;
		slt_span_copy((struct slt_span){ e, n }, event, event_size);
	}
}

bool slt_perf_event_is_store(const char *event)
{
	return strstr(event, "stores") != NULL;
}

/* "# Samples: 26K of event 'cpu/mem-loads,ldlat=1/P'" */
static void parse_samples_line(struct dt *d, struct slt_span body)
{
	slt_perf_samples_header(body, &d->total, d->event, sizeof(d->event));
	d->stores = slt_perf_event_is_store(d->event);
	d->annot = false;
}

/* Collapse whitespace runs to one space (annotate type names use tabs). */
static void copy_collapsed(struct slt_span s, char *buf, size_t size)
{
	size_t o = 0;
	bool sp = false;
	s = slt_span_trim(s);
	for (size_t i = 0; i < s.n && o + 1 < size; i++) {
		if (slt_text_isspace(s.p[i])) {
			sp = true;
			continue;
		}
		if (sp && o + 2 < size)
			buf[o++] = ' ';
		sp = false;
		buf[o++] = s.p[i];
	}
	buf[o] = '\0';
}

/* "Annotate type: 'struct pcpu_hot' in [kernel.kallsyms] (223 samples):" */
static void parse_annotate_type(struct dt *d, struct slt_span tl)
{
	const char *q1 = memchr(tl.p, '\'', tl.n);
	const char *end = tl.p + tl.n;
	d->annot = true;
	d->annot_pct = false;
	d->annot_total = 0;
	d->annot_hw = 0;
	d->annot_any = false;
	d->annot_type_known = false;
	d->type[0] = '\0';
	if (q1) {
		const char *q2 = memchr(q1 + 1, '\'', (size_t)(end - q1 - 1));
		if (q2) {
			copy_collapsed((struct slt_span){ q1 + 1, (size_t)(q2 - q1 - 1) },
				       d->type, sizeof(d->type));
			d->annot_type_known = true;
		}
	}
	/* "(N samples)" */
	for (const char *p = end; p > tl.p; p--) {
		if (p[-1] == '(') {
			struct slt_span r = { p, (size_t)(end - p) }, t;
			if (slt_tok_next(&r, &t) && slt_parse_u64(t, &d->annot_total))
				break;
		}
	}
}

/* "count offset size field..." under an annotate header */
static int annotate_row(struct dt *d, struct slt_span tl, bool *handled)
{
	struct slt_span r = tl, tc, to, ts;
	uint64_t cnt = 0, off, size;
	uint32_t centi = 0;
	*handled = false;
	if (!slt_tok_next(&r, &tc) || !slt_tok_next(&r, &to) || !slt_tok_next(&r, &ts))
		return 0;
	if (d->annot_pct ? !slt_parse_pct(tc, false, &centi) : !slt_parse_u64(tc, &cnt))
		return 0;
	if (!slt_parse_uint(to, &off) || !slt_parse_uint(ts, &size))
		return 0;
	struct slt_span field = slt_span_trim(r);
	if (!field.n)
		return 0;
	*handled = true;
	d->seen = true;
	char last = field.p[field.n - 1];
	if (last == '{') {
		if (!d->type[0] && !d->annot_type_known)
			copy_collapsed((struct slt_span){ field.p, field.n - 1 },
				       d->type, sizeof(d->type));
		return 0;
	}
	if (last != ';')
		return 0;
	if (d->annot_any && off < d->annot_hw)
		return 0;  /* a later union alternative: same samples */
	if (d->annot_pct) {
		if (centi == 0)
			return 0;
		if (!d->annot_total || !d->type[0]) {
			d->no_total += !d->annot_total;
			d->pc->info->skipped++;
			return 0;
		}
		cnt = slt_pct_of(centi, d->annot_total);
		if (!cnt)
			cnt = 1;
	}
	if (!cnt)
		return 0;
	if (!d->type[0]) {
		d->pc->info->skipped++;
		return 0;
	}
	d->annot_any = true;
	uint64_t end = slt_sat_add(off, size ? size : 1);
	if (end > d->annot_hw)
		d->annot_hw = end;
	d->annotated++;
	return emit(d, d->type, off, cnt, false, NULL);
}

/* perf report rows: [+|-] PCT% [PCT%...] [SAMPLES] TYPE +OFF [(field)] */
static int report_row(struct dt *d, struct slt_span tl)
{
	struct slt_span r = tl, t, save;
	uint32_t centi = 0, c2;
	bool have_pct = false;
	for (;;) {
		save = r;
		if (!slt_tok_next(&r, &t))
			return 0;
		if (slt_span_eq(t, "+") || slt_span_eq(t, "-"))
			continue;
		if (slt_parse_pct(t, true, &c2)) {
			if (!have_pct)
				centi = c2;
			have_pct = true;
			continue;
		}
		r = save;
		break;
	}
	if (!have_pct)
		return 0;
	uint64_t cnt = 0;
	bool have_cnt = false;
	if (d->samples_col) {
		if (!slt_tok_next(&r, &t) || !slt_parse_u64(t, &cnt))
			return 0;
		have_cnt = true;
	}
	struct slt_span rest = slt_span_trim(r);
	/* drop a trailing "(field)" */
	if (rest.n && rest.p[rest.n - 1] == ')') {
		size_t i = rest.n;
		while (i > 0 && rest.p[i - 1] != '(')
			i--;
		if (i == 0)
			return 0;
		rest.n = i - 1;
		rest = slt_span_trim(rest);
	}
	/* the last token must be +OFF */
	size_t i = rest.n;
	while (i > 0 && !slt_text_isspace(rest.p[i - 1]))
		i--;
	struct slt_span offt = { rest.p + i, rest.n - i };
	uint64_t off;
	if (offt.n < 2 || offt.p[0] != '+')
		return 0;
	offt.p++;
	offt.n--;
	if (!slt_parse_uint(offt, &off))
		return 0;
	struct slt_span type = slt_span_trim((struct slt_span){ rest.p, i });
	/* flat output has a type column first: keep the last column, the
	 * columns being separated by two or more blanks */
	for (size_t k = type.n; k >= 2; k--) {
		if (slt_text_isspace(type.p[k - 1]) && slt_text_isspace(type.p[k - 2])) {
			type = slt_span_trim((struct slt_span){ type.p + k, type.n - k });
			break;
		}
	}
	d->seen = true;
	if (!type.n || type.p[0] == '(') {
		d->pc->info->skipped++;  /* (unknown), (stack operation) */
		return 0;
	}
	if (!have_cnt) {
		if (!d->total) {
			d->no_total++;
			d->pc->info->skipped++;
			return 0;
		}
		cnt = slt_pct_of(centi, d->total);
		if (!cnt)
			cnt = 1;
	}
	if (!cnt)
		return 0;
	copy_collapsed(type, d->rtype, sizeof(d->rtype));
	d->report_rows++;
	return emit(d, d->rtype, off, cnt, d->stores, d->event);
}

int slt_datatype_detect(const unsigned char *head, size_t n)
{
	struct slt_span s = { (const char *)head, n };
	if (slt_span_contains(s, "Data Type Offset") ||
	    slt_span_contains(s, "Annotate type: '"))
		return 85;
	if (slt_span_contains(s, "offset       size  field") ||
	    slt_span_contains(s, ": cache-line "))
		return 70;
	if (slt_span_contains(s, " (no field)"))
		return 50;
	return 0;
}

int slt_datatype_parse(const struct slt_parse_ctx *pc, const unsigned char *data,
		       size_t size)
{
	struct dt d;
	memset(&d, 0, sizeof(d));
	d.pc = pc;
	struct slt_text tx;
	struct slt_span line;
	slt_text_init(&tx, data, size);
	int rc = 0;
	while (rc == 0 && slt_text_next(&tx, &line, NULL)) {
		struct slt_span tl = slt_span_trim(line);
		if (!tl.n)
			continue;
		if (tl.p[0] == '#') {
			struct slt_span body = slt_span_trim((struct slt_span){ tl.p + 1,
										tl.n - 1 });
			if (slt_span_starts(body, "Samples:")) {
				parse_samples_line(&d, body);
			} else if (slt_span_starts(body, "Overhead")) {
				struct slt_span r = body, t;
				d.samples_col = false;
				slt_tok_next(&r, &t);
				if (slt_tok_next(&r, &t) && slt_span_eq(t, "Samples"))
					d.samples_col = true;
				if (slt_span_contains(body, "Data Type"))
					d.seen = true;
				d.annot = false;
			}
			continue;
		}
		if (slt_span_starts(tl, "Annotate type:")) {
			parse_annotate_type(&d, tl);
			d.seen = true;
			continue;
		}
		{
			struct slt_span r = tl, t1, t2, t3, t4;
			if (slt_tok_next(&r, &t1) && slt_tok_next(&r, &t2) &&
			    slt_tok_next(&r, &t3) && slt_tok_next(&r, &t4) &&
			    slt_span_eq(t2, "offset") && slt_span_eq(t3, "size") &&
			    slt_span_eq(t4, "field")) {
				if (!d.annot) {  /* header without "Annotate type:" */
					d.annot = true;
					d.annot_total = 0;
					d.annot_hw = 0;
					d.annot_any = false;
					d.annot_type_known = false;
					d.type[0] = '\0';
				}
				d.annot_pct = slt_span_eq(t1, "Percent");
				d.seen = true;
				continue;
			}
		}
		if (d.annot) {
			bool handled;
			rc = annotate_row(&d, tl, &handled);
			if (handled || rc)
				continue;
		}
		rc = report_row(&d, tl);
	}
	snprintf(pc->info->detail, sizeof(pc->info->detail),
		 "perf data-type profile: %u report rows, %u annotate fields, %u rows "
		 "with percentages but no sample count",
		 d.report_rows, d.annotated, d.no_total);
	if (rc)
		return rc;
	if (d.no_total && !pc->info->records)
		return slt_error_set_line(pc->err, SLT_EUSAGE, pc->name, tx.line ? 1 : 0,
					  "give the sample count: perf report --stdio -s "
					  "type,typeoff -F overhead,sample,type,typeoff (a "
					  "Samples column), or keep perf's '# Samples: N of "
					  "event' header lines (perf annotate --data-type: its "
					  "'(N samples)' header)",
					  "perf data-type profile gives percentages without a "
					  "sample count: %u rows cannot be turned into counts",
					  d.no_total);
	if (!d.seen)
		return slt_error_set_line(pc->err, SLT_EUSAGE, pc->name, tx.line ? 1 : 0,
					  "pass perf report -s type,typeoff --stdio or "
					  "perf annotate --data-type output",
					  "no perf data-type profile content found");
	return 0;
}
