/* SPDX-License-Identifier: MIT */
/*
 * `perf script` text: one slt_sample per sample line that carries a data
 * address (perf script -F ...,addr,...).
 *
 * perf script prints a sample's fields in one fixed order whatever the
 * order given to -F (tools/perf/builtin-script.c, process_event() and
 * perf_sample__fprintf_start(); tested against Debian's perf 6.1, the
 * order and widths read the same in later sources):
 *
 *   [comm] [pid/tid | tid | pid] [[cpu]] [sec.usec:] [period] [event:]
 *   [addr [addr-sym] [(addr-dso)]] [data_src |decoded|] [weight]
 *   [ip [sym[+off]] [(dso)]] [phys_addr]
 *
 * and with -g the ip as a call chain on the following tab-indented lines.
 * The fields are not labelled; they are told apart by their shape and by
 * perf's column widths, which are part of the output format:
 *   - addr, the raw data_src, weight and phys_addr are printed "%16" (hex
 *     without 0x; weight decimal) with no separator before them, so the
 *     token and the blanks before it fill at least 16 columns; ip is
 *     printed "%*s%16" with a one-space prefix (at least 17 columns);
 *   - the header numbers are narrower: tid "%5d", pid/tid "%5d/%-5d",
 *     cpu "[%03d]", time "%5lu.%06lu:", period "%10" after "time: ";
 *   - the event name ends with ':'; the data_src decode starts with "|OP".
 * Hence: the first number after the header is the data address when it
 * fills 16 columns after the header's trailing blank, and the ip (a line
 * without -F addr: skipped and counted, and an input with no address at
 * all is refused with advice) when it fills 17; then a 16-column number
 * followed by "|..." is the raw data_src; a
 * number in at least 17 columns is the ip; a 16-column decimal before the
 * ip is the weight; a 16-column number after the ip (or after the address
 * or weight when there is no ip) is phys_addr.  One combination stays
 * ambiguous and is read as the weight: -F addr,phys_addr without ip or
 * data_src where the physical address has only decimal digits.
 *
 * data_src: perf prints the raw value next to its decode
 * ("%16" PRIx64 " %s", data_src__fprintf()), so the raw value is decoded
 * with slt_data_src_decode(); page-fault samples carry none and are
 * counted as loads of unknown kind (info->detail says how many).
 * A single number before the cpu, time and event is the tid (perf prints
 * the pid alone only for -F pid without tid, and a period alone for
 * -F period without cpu, time or event: both read as the tid).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "samples/parsers.h"
#include "samples/text.h"
#include "structlint/error.h"

#define MAX_TOK 256

struct tok {
	const char *p;
	size_t n;
	size_t cols;   /* the token plus the blanks before it (tabs: 1) */
};

struct ps {
	const struct slt_parse_ctx *pc;
	char event[128];
	char symbol[256];
	char object[256];
	uint64_t unknown_kind;
	size_t dsrc_maxlen;   /* widest data_src field so far (perf's maxlen) */
	bool line_time, line_event; /* the last header had a time, an event */
	/* lines without a data address (perf's default output for every
	 * event type but raw PMU events): what their headers showed */
	bool skip_cpu, skip_nocpu;  /* some with a [cpu], some without */
	char skip_event[128];       /* the first one's event, or "" */
	struct tok t[MAX_TOK];
};

static bool is_hex_digit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/* Plain hex as perf prints it with PRIx64: no 0x, at most 16 digits. */
static bool plain_hex(const struct tok *t, uint64_t *v)
{
	if (t->n == 0 || t->n > 16)
		return false;
	uint64_t x = 0;
	for (size_t i = 0; i < t->n; i++) {
		char c = t->p[i];
		if (!is_hex_digit(c))
			return false;
		x = x << 4 | (uint64_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	*v = x;
	return true;
}

static bool all_dec(const struct tok *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->p[i] < '0' || t->p[i] > '9')
			return false;
	return t->n > 0;
}

/* A 16-column field of perf's: hex digits filling >= 16 columns. */
static bool wide(const struct tok *t)
{
	if (t->cols < 16 || t->n > 20)
		return false;
	for (size_t i = 0; i < t->n; i++)
		if (!is_hex_digit(t->p[i]))
			return false;
	return true;
}

/* Split a line into tokens; returns the count, or -1 when over MAX_TOK. */
static int tokenize(struct ps *st, struct slt_span line)
{
	struct slt_span rest = line, tok;
	const char *prev = line.p;
	int n = 0;
	while (slt_tok_next(&rest, &tok)) {
		if (n == MAX_TOK)
			return -1;
		st->t[n].p = tok.p;
		st->t[n].n = tok.n;
		st->t[n].cols = (size_t)(tok.p - prev) + tok.n;
		prev = tok.p + tok.n;
		n++;
	}
	return n;
}

static bool dec_i32(const char *p, size_t n, int32_t *v)
{
	struct slt_span s = { p, n };
	uint64_t x;
	if (!slt_parse_u64(s, &x) || x > INT32_MAX)
		return false;
	*v = (int32_t)x;
	return true;
}

static int bad(const struct ps *st, unsigned line, const char *what)
{
	return slt_error_set_line(st->pc->err, SLT_ECORRUPT, st->pc->name, line,
				  "expected `perf script` output (perf script -F ...,addr,... -i perf.data); "
				  "pass --samples-format to name another format",
				  "%s", what);
}

/* Copy tokens [a, b) as one string (inner blanks kept) into buf. */
static void copy_toks(const struct tok *t, int a, int b, char *buf, size_t size)
{
	struct slt_span s = { t[a].p, (size_t)(t[b - 1].p + t[b - 1].n - t[a].p) };
	slt_span_copy(s, buf, size);
}

/*
 * ip at token i, then its symbol and "(dso)"; returns the index after
 * them, or -1 when the ip is not a 64-bit hex number.  Symbol and object
 * go to st->symbol / st->object.
 */
static int take_ip_sym(struct ps *st, int n, int i, struct slt_sample *s)
{
	const struct tok *t = st->t;
	uint64_t ip;
	if (!plain_hex(&t[i], &ip))
		return -1;
	s->flags |= SLT_SAMPLE_IP;
	s->ip = ip;
	int a = ++i;
	while (i < n && !wide(&t[i]) && t[i].p[0] != '(')
		i++;
	if (i > a && !(i == a + 1 && t[a].n == 9 && !memcmp(t[a].p, "[unknown]", 9))) {
		copy_toks(t, a, i, st->symbol, sizeof(st->symbol));
		s->symbol = st->symbol;
	}
	if (i < n && t[i].p[0] == '(') {
		int d = i;
		while (i < n && t[i].p[t[i].n - 1] != ')')
			i++;
		if (i < n) {
			/* without the parentheses (at least 2 bytes: "(" starts
			 * t[d], ")" ends t[i]) */
			struct slt_span o = { t[d].p + 1,
					      (size_t)(t[i].p + t[i].n - t[d].p) - 2 };
			slt_span_copy(o, st->object, sizeof(st->object));
			s->object = st->object;
			i++;
		}
	}
	return i;
}

/* Header fields: tokens before the first 16-column number. */
static int header(struct ps *st, int n, unsigned lno, struct slt_sample *s, int *data)
{
	const struct tok *t = st->t;
	bool anchor = false;   /* cpu, time or event seen: numbers are periods */
	int i = 0;
	st->line_time = st->line_event = false;
	for (; i < n && !wide(&t[i]); i++) {
		const char *p = t[i].p;
		size_t k = t[i].n;
		const char *slash = memchr(p, '/', k);
		if (p[0] == '[' && p[k - 1] == ']' && k >= 3 && all_dec(&(struct tok){ p + 1, k - 2, 0 })) {
			if (!dec_i32(p + 1, k - 2, &s->cpu))
				return bad(st, lno, "cpu number out of range");
			s->flags |= SLT_SAMPLE_CPU;
			anchor = true;
		} else if (p[k - 1] == ':') {
			/* time "sec.usec:" or the event name */
			const char *dot = memchr(p, '.', k);
			bool is_time = dot && dot > p;
			for (size_t j = 0; is_time && j + 1 < k; j++)
				if (p + j != dot && (p[j] < '0' || p[j] > '9'))
					is_time = false;
			st->line_time |= is_time;
			if (!is_time && k > 1) {
				st->line_event = true;
				struct slt_span ev = { p, k - 1 };
				if (strlen(st->event) != ev.n || memcmp(st->event, p, ev.n))
					slt_span_copy(ev, st->event, sizeof(st->event));
				s->event = st->event;
			}
			anchor = true;
		} else if (!anchor && !(s->flags & SLT_SAMPLE_TID) && slash &&
			   all_dec(&(struct tok){ p, (size_t)(slash - p), 0 }) &&
			   all_dec(&(struct tok){ slash + 1, (size_t)(p + k - slash - 1), 0 })) {
			if (!dec_i32(p, (size_t)(slash - p), &s->pid) ||
			    !dec_i32(slash + 1, (size_t)(p + k - slash - 1), &s->tid))
				return bad(st, lno, "pid/tid out of range");
			s->flags |= SLT_SAMPLE_TID;
		} else if (!anchor && !(s->flags & SLT_SAMPLE_TID) && all_dec(&t[i])) {
			if (!dec_i32(p, k, &s->tid))
				return bad(st, lno, "tid out of range");
			s->flags |= SLT_SAMPLE_TID;
		}
		/* anything else: comm (may hold blanks), period, flags */
	}
	*data = i;
	return 0;
}

/*
 * Parse one sample line (tokens in st->t); peek at the call-chain lines
 * after it through *tx.  Returns 1 with *s filled, 0 when the line has no
 * data address (skipped), or a negative code.
 */
static int sample_line(struct ps *st, int n, unsigned lno, struct slt_text *tx,
		       struct slt_sample *s)
{
	struct tok *t = st->t;
	int i = 0, rc = header(st, n, lno, s, &i);
	if (rc)
		return rc;
	/* the header's last field ends with one blank ("%5d ", "[%03d] ",
	 * "%s: "): addr fills 16 columns after it, an ip 17 (no addr) */
	if (i == n || t[i].cols - (i > 0) >= 17) {
		if (s->flags & SLT_SAMPLE_CPU)
			st->skip_cpu = true;
		else
			st->skip_nocpu = true;
		if (!st->skip_event[0] && s->event)
			snprintf(st->skip_event, sizeof(st->skip_event), "%s", s->event);
		return 0;
	}
	if (!plain_hex(&t[i], &s->addr))
		return bad(st, lno, "data address wider than 64 bits");
	s->flags |= SLT_SAMPLE_ADDR;
	i++;
	/* the address's own symbol and dso (page faults, branch samples) */
	while (i < n && !wide(&t[i]) && t[i].p[0] != '|')
		i++;
	bool have_dsrc = false, have_weight = false, have_ip = false, have_phys = false;
	uint64_t weight = 0;
	while (i < n) {
		struct tok *w = &t[i];
		uint64_t v;
		if (!wide(w))
			return bad(st, lno, "unexpected text between the numeric fields");
		if (!plain_hex(w, &v) && !(all_dec(w) && !have_weight && !have_ip))
			return bad(st, lno, "number wider than 64 bits");
		bool deco = i + 1 < n && !wide(&t[i + 1]);  /* sym or (dso) */
		if (deco && t[i + 1].p[0] == '|' && !have_dsrc && !have_weight && !have_ip) {
			have_dsrc = true;
			s->flags |= SLT_SAMPLE_DATA_SRC;
			s->data_src = v;
			/* raw "%16" PRIx64 " " decode, left-aligned in the widest
			 * such field perf printed so far (a static maxlen in
			 * data_src__fprintf()): take that padding off the next
			 * field's columns */
			const char *start = w->p + w->n - 16;
			for (i++; i < n && !wide(&t[i]); i++)
				;   /* the decode, re-derived from the raw value */
			size_t len = (size_t)(t[i - 1].p + t[i - 1].n - start);
			if (len > st->dsrc_maxlen)
				st->dsrc_maxlen = len;
			size_t pad = st->dsrc_maxlen - len;
			if (i < n)
				t[i].cols = t[i].cols > pad ? t[i].cols - pad : 0;
		} else if ((w->cols >= 17 || deco) && !have_ip && !have_phys) {
			have_ip = true;
			if ((i = take_ip_sym(st, n, i, s)) < 0)
				return bad(st, lno, "code address wider than 64 bits");
		} else if (!have_ip && !have_weight && !have_phys && all_dec(w)) {
			struct slt_span sp = { w->p, w->n };
			if (!slt_parse_u64(sp, &weight))
				return bad(st, lno, "weight out of range");
			have_weight = true;
			i++;
		} else if (!have_phys) {
			have_phys = true;
			s->flags |= SLT_SAMPLE_PHYS;
			s->phys_addr = v;
			i++;
		} else {
			return bad(st, lno, "more numeric fields than perf script prints "
				   "(addr, data_src, weight, ip, phys_addr)");
		}
	}
	/* call chain (-g): tab-indented "ip sym (dso)" lines, the first for
	 * the sampled ip.  perf prints user-space entries relative to their
	 * DSO's map there (1ab70 for an ip of 7f..1ab70 in ld.so), so only
	 * the symbol and the object are taken, not the address */
	bool first = !have_ip;
	for (;;) {
		struct slt_text peek = *tx;
		struct slt_span l;
		if (!slt_text_next(&peek, &l, NULL) || !l.n || l.p[0] != '\t')
			break;
		*tx = peek;
		int m = tokenize(st, l);
		if (m < 0)
			return bad(st, tx->line, "call-chain line with too many fields");
		uint64_t v;
		if (m == 0 || !wide(&st->t[0]) || !plain_hex(&st->t[0], &v))
			return bad(st, tx->line, "call-chain line without a code address");
		if (first) {
			first = false;
			take_ip_sym(st, m, 0, s);
			s->flags &= ~(uint32_t)SLT_SAMPLE_IP;
			s->ip = 0;
		}
	}
	struct slt_data_src d;
	if (have_dsrc)
		slt_data_src_decode(s->data_src, &d);
	if (slt_sample_count_access(s, have_dsrc ? &d : NULL, have_weight, weight))
		st->unknown_kind++;
	return 1;
}

/* Software page-fault events (perf record -e page-faults -d): no raw PMU
 * event, so perf script's default output leaves the data address out, and
 * their samples carry no CPU unless recorded with --sample-cpu. */
static bool fault_event(const char *ev)
{
	static const char *const names[] = { "page-faults", "faults", "minor-faults",
					     "major-faults", "page-faults:u", "page-faults:k" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(ev, names[i]))
			return true;
	return false;
}

/*
 * No line had a data address.  perf script prints addr by default only
 * for raw PMU events (perf mem, perf c2c: PERF_TYPE_RAW, whose default
 * output is read as is); for other events (page faults, AMD IBS, ...)
 * the default output has none: give the -F line that prints it with the
 * fields these lines showed (perf refuses -F cpu for samples recorded
 * without a CPU, as page faults are by default).
 */
static int no_address(const struct ps *st)
{
	const struct slt_parse_ctx *pc = st->pc;
	const char *ev = st->skip_event;
	bool cpu = st->skip_cpu && !st->skip_nocpu;
	bool fault = ev[0] && fault_event(ev);
	char hint[600], what[200];
	snprintf(what, sizeof(what), "%s%s", ev[0] ? " of event " : "", ev);
	snprintf(hint, sizeof(hint),
		 "print it: perf script -F tid,%stime,event,addr,ip,sym,dso -i perf.data%s, "
		 "or give the perf.data itself: --samples perf.data",
		 cpu ? "cpu," : "",
		 cpu && fault ? "" :
		 fault ? " (page-fault samples carry no CPU: perf refuses cpu for them; "
		 "record with perf record -d for addresses)" :
		 !cpu && st->skip_cpu ? " (some samples carry no CPU: perf refuses cpu for them; "
		 "add data_src,weight,phys_addr when recorded)" :
		 " (add data_src,weight,phys_addr when recorded)");
	return slt_error_set_line(pc->err, SLT_EUSAGE, pc->name, 0, hint,
				  "no sample line has a data address: %" PRIu64 " lines%s without one "
				  "(perf script's default output prints it only for raw PMU events: "
				  "perf mem, perf c2c)", pc->info->skipped, what);
}

static void init_sample(struct slt_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->cpu = s->pid = s->tid = s->node = -1;
}

int slt_perf_script_parse(const struct slt_parse_ctx *pc,
			  const unsigned char *data, size_t size)
{
	struct ps st;
	memset(&st, 0, sizeof(st));  /* the token array need not be */
	st.pc = pc;
	struct slt_text tx;
	struct slt_span line;
	slt_text_init(&tx, data, size);
	int rc = 0;
	while (slt_text_next(&tx, &line, NULL)) {
		struct slt_span tr = slt_span_trim(line);
		if (!tr.n || tr.p[0] == '#')
			continue;
		if (line.p[0] == '\t')
			return bad(&st, tx.line, "call-chain line without a sample line before it");
		int n = tokenize(&st, line);
		if (n < 0)
			return bad(&st, tx.line, "line with too many fields");
		unsigned lno = tx.line;
		struct slt_sample s;
		init_sample(&s);
		st.symbol[0] = st.object[0] = 0;
		rc = sample_line(&st, n, lno, &tx, &s);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			pc->info->skipped++;
			continue;
		}
		pc->info->records++;
		pc->info->samples++;
		if ((rc = pc->cb(pc->cb_ctx, &s)))
			return rc;
	}
	if (!pc->info->records && pc->info->skipped)
		return no_address(&st);
	int k = snprintf(pc->info->detail, sizeof(pc->info->detail), "perf script text");
	if (st.unknown_kind && k > 0)
		snprintf(pc->info->detail + k, sizeof(pc->info->detail) - (size_t)k,
			 "; %" PRIu64 " samples without a load/store kind (e.g. page faults) counted as loads",
			 st.unknown_kind);
	return 0;
}

/*
 * Score: the complete lines of the head (up to 32 sample lines) must all
 * read as perf script sample lines, most of them with a data address
 * (lines of events without one are skipped by the parser); 45 when a
 * line also has a cpu, time or event field (perf's default output has
 * all three), else 25 (bare numbers: any column text could look so);
 * 30 when no line has an address but every one is perf's default header
 * (a time and an event) before a code address: the default output of an
 * event perf prints no address for by default, which the parser refuses
 * naming the -F line that prints it.
 */
int slt_perf_script_detect(const unsigned char *head, size_t head_len)
{
	struct ps st;
	struct slt_parse_ctx pc = { 0 };
	struct slt_samples_info info;
	pc.info = &info;
	memset(&st, 0, sizeof(st));
	st.pc = &pc;
	/* only complete lines */
	size_t n = head_len;
	while (n && head[n - 1] != '\n')
		n--;
	if (!n)
		n = head_len;
	struct slt_text tx;
	struct slt_span line;
	slt_text_init(&tx, head, n);
	int good = 0, skipped = 0, dflt = 0;
	bool anchored = false;
	while (good < 32 && slt_text_next(&tx, &line, NULL)) {
		struct slt_span tr = slt_span_trim(line);
		if (!tr.n || tr.p[0] == '#')
			continue;
		int m = tokenize(&st, line);
		if (m <= 0 || line.p[0] == '\t')
			return 0;
		struct slt_sample s;
		init_sample(&s);
		int rc = sample_line(&st, m, tx.line, &tx, &s);
		if (rc < 0)
			return 0;
		if (rc == 0) {
			/* perf's default header (time and event) before a
			 * code address in 17 columns */
			skipped++;
			dflt += st.line_time && st.line_event;
			continue;
		}
		if (s.flags & SLT_SAMPLE_CPU || s.event)
			anchored = true;
		good++;
	}
	/* perf's default output of events it prints no address for: taken,
	 * so that the parser says which -F line prints it */
	if (!good && skipped && dflt == skipped)
		return 30;
	if (!good || skipped > good)
		return 0;
	return anchored ? 45 : 25;
}
