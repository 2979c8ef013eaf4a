/* SPDX-License-Identifier: MIT */
/*
 * structlint — the rules file parser (format: include/structlint/rules.h,
 * structlint(1) RULES FILES).  Hand-written and bounds-checked: every
 * read is against the line's end, no NUL is assumed in the input.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/arena.h"
#include "common/strmap.h"
#include "common/strdist.h"
#include "structlint/rules.h"

#define MAX_NAMES 256      /* names in one statement */
#define MAX_FILE (64u << 20)

static const char accepted[] =
	"want [struct NAME], group NAME = MEMBER..., separate = GROUP GROUP..., "
	"max-lines GROUP = N, first = MEMBER, offset MEMBER = N, max-size = N, "
	"max-cachelines = N, max-holes = N, cacheline-start = MEMBER, "
	"no-hot-write-near = MEMBER";

static const struct {
	const char *key;
	enum slt_rule_kind kind;
	int arg;      /* 1: KEY ARG = ...; 0: KEY = ... */
	int names;    /* value: 0 number, 1 one name, 2 two or more names */
} keys[] = {
	{ "separate", SLT_RULE_SEPARATE, 0, 2 },
	{ "max-lines", SLT_RULE_MAX_LINES, 1, 0 },
	{ "first", SLT_RULE_FIRST, 0, 1 },
	{ "offset", SLT_RULE_OFFSET, 1, 0 },
	{ "max-size", SLT_RULE_MAX_SIZE, 0, 0 },
	{ "max-cachelines", SLT_RULE_MAX_CACHELINES, 0, 0 },
	{ "max-holes", SLT_RULE_MAX_HOLES, 0, 0 },
	{ "cacheline-start", SLT_RULE_CACHELINE_START, 0, 1 },
	{ "no-hot-write-near", SLT_RULE_NO_HOT_WRITE_NEAR, 0, 1 },
};

const char *slt_rule_kind_name(enum slt_rule_kind k)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (keys[i].kind == k)
			return keys[i].key;
	return "rule";
}

struct tok {
	const char *p;
	size_t n;
	unsigned col;
};

/* slt_rules.priv_: the arena of every string and array, and the index
 * of struct names (one lookup per section and per struct checked). */
struct rules_priv {
	struct slt_arena *arena;
	struct slt_strmap index;   /* name -> structs[] index */
};

struct parser {
	const char *name;
	struct slt_arena *a;
	struct slt_rules *r;
	size_t cap_structs;
	struct slt_rules_struct *cur;
	size_t cap_groups, cap_rules;   /* of cur */
	unsigned line;
	struct slt_error *err;
};

static int fail(struct parser *ps, unsigned col, const char *hint,
		const char *what, const struct tok *t)
{
	if (t) {
		/* the token as text: a control or non-ASCII byte as \xNN */
		char q[80 * 4 + 1];
		size_t k = 0;
		for (size_t i = 0; i < t->n && i < 80; i++) {
			unsigned char ch = (unsigned char)t->p[i];
			if (ch < 0x20 || ch >= 0x7f)
				k += (size_t)snprintf(q + k, sizeof(q) - k, "\\x%02x", ch);
			else
				q[k++] = (char)ch;
		}
		q[k] = 0;
		return slt_error_set_line(ps->err, SLT_ECORRUPT, ps->name, ps->line,
					  hint, "column %u: %s '%s'", col, what, q);
	}
	return slt_error_set_line(ps->err, SLT_ECORRUPT, ps->name, ps->line, hint,
				  "column %u: %s", col, what);
}

static int failf(struct parser *ps, unsigned col, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int failf(struct parser *ps, unsigned col, const char *hint, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return slt_error_set_line(ps->err, SLT_ECORRUPT, ps->name, ps->line, hint,
				  "column %u: %s", col, msg);
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-' ||
	       c == ':' || c == '[' || c == ']';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool tok_is(const struct tok *t, const char *s)
{
	return t->n == strlen(s) && !memcmp(t->p, s, t->n);
}

/* Grow *arr (element size sz) to hold one more than n; arena-free since
 * the rules live as long as the arena. */
static void *grow(struct parser *ps, void *arr, size_t n, size_t *cap, size_t sz)
{
	if (n < *cap)
		return arr;
	size_t nc = *cap ? *cap * 2 : 8;
	void *na = slt_arena_calloc(ps->a, nc, sz);
	if (!na)
		return NULL;
	if (n)
		memcpy(na, arr, n * sz);
	*cap = nc;
	return na;
}

static int oom(struct parser *ps)
{
	return slt_error_set(ps->err, SLT_ENOMEM, ps->name, -1, NULL, "out of memory");
}

static int parse_number(struct parser *ps, const struct tok *t, uint64_t *out)
{
	char buf[32];
	if (t->n == 0 || t->n >= sizeof(buf) || t->p[0] == '-' || t->p[0] == '+')
		return fail(ps, t->col, "want a number of bytes or lines: decimal or 0x hexadecimal",
			    "not a number:", t);
	memcpy(buf, t->p, t->n);
	buf[t->n] = 0;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 0);
	if (errno || *end)
		return fail(ps, t->col, "want a number of bytes or lines: decimal or 0x hexadecimal",
			    "not a number:", t);
	*out = v;
	return 0;
}

static int section(struct parser *ps, const char *p, const char *e, unsigned col0)
{
	const char *q = p + 1;
	while (q < e && is_space(*q))
		q++;
	const char *close = memchr(q, ']', (size_t)(e - q));
	if (!close)
		return fail(ps, col0, "want [struct NAME] or [union NAME]", "section without ']'", NULL);
	for (const char *z = close + 1; z < e; z++)
		if (!is_space(*z)) {
			struct tok t = { z, (size_t)(e - z), (unsigned)(z - p) + col0 };
			return fail(ps, t.col, "nothing may follow a section's ']' but a comment",
				    "unexpected text after the section:", &t);
		}
	const char *ne = close;
	while (ne > q && is_space(ne[-1]))
		ne--;
	size_t kw = 0;
	if ((size_t)(ne - q) > 7 && !memcmp(q, "struct", 6) && is_space(q[6]))
		kw = 6;
	else if ((size_t)(ne - q) > 6 && !memcmp(q, "union", 5) && is_space(q[5]))
		kw = 5;
	if (kw)
		for (q += kw; q < ne && is_space(*q);)
			q++;
	if (q == ne || (!kw && (ne - q == 6 || ne - q == 5) &&
			(!memcmp(q, "struct", 6) || !memcmp(q, "union", 5))))
		return fail(ps, col0, "want [struct NAME] or [union NAME]", "section names no struct", NULL);
	for (const char *z = q; z < ne; z++)
		if (!(name_char(*z) && *z != '.' && *z != ':' && *z != '[' && *z != ']')) {
			struct tok t = { q, (size_t)(ne - q), (unsigned)(q - p) + col0 };
			return fail(ps, t.col, "want [struct NAME] or [union NAME] with a C identifier",
				    "not a struct name:", &t);
		}
	enum slt_kind kind = kw == 6 ? SLT_KIND_STRUCT : kw == 5 ? SLT_KIND_UNION : 0;
	unsigned ncol = (unsigned)(q - p) + col0;
	/* A struct named twice keeps one entry: later sections append. */
	struct slt_rules *r = ps->r;
	struct rules_priv *pv = r->priv_;
	size_t i;
	if (slt_strmap_get(&pv->index, q, (size_t)(ne - q), &i)) {
		struct slt_rules_struct *o = &r->structs[i];
		if (kind && o->kind && kind != o->kind)
			return failf(ps, ncol, "a name is a struct or a union: use one keyword for it",
				     "[%s %s] but line %u says [%s %s]",
				     kind == SLT_KIND_UNION ? "union" : "struct", o->name, o->line,
				     o->kind == SLT_KIND_UNION ? "union" : "struct", o->name);
		if (kind)
			o->kind = kind;
		ps->cur = &r->structs[i];
		ps->cap_groups = ps->cur->n_groups;
		ps->cap_rules = ps->cur->n_rules;
		return 0;
	}
	r->structs = grow(ps, r->structs, r->n_structs, &ps->cap_structs, sizeof(*r->structs));
	if (!r->structs)
		return oom(ps);
	ps->cur = &r->structs[r->n_structs++];
	ps->cur->name = slt_arena_strndup(ps->a, q, (size_t)(ne - q));
	ps->cur->line = ps->line;
	ps->cur->kind = kind;
	ps->cur->column = ncol;
	ps->cap_groups = ps->cap_rules = 0;
	if (!ps->cur->name ||
	    slt_strmap_put(&pv->index, ps->cur->name, (size_t)(ne - q), r->n_structs - 1, NULL))
		return oom(ps);
	return 0;
}

/* The names of toks[0..n) as arena strings. */
static struct slt_rule_name *names_of(struct parser *ps, const struct tok *toks, size_t n)
{
	struct slt_rule_name *v = slt_arena_calloc(ps->a, n ? n : 1, sizeof(*v));
	for (size_t i = 0; v && i < n; i++) {
		v[i].name = slt_arena_strndup(ps->a, toks[i].p, toks[i].n);
		v[i].column = toks[i].col;
		if (!v[i].name)
			return NULL;
	}
	return v;
}

/* Keys that set one value per struct (or per member/group named before
 * '='): a second one is refused, as is first = M beside offset M = N != 0. */
static bool single(enum slt_rule_kind k)
{
	return k == SLT_RULE_FIRST || k == SLT_RULE_OFFSET || k == SLT_RULE_MAX_LINES ||
	       k == SLT_RULE_MAX_SIZE || k == SLT_RULE_MAX_CACHELINES || k == SLT_RULE_MAX_HOLES;
}

static int duplicate(struct parser *ps, const struct slt_rules_struct *cur,
		     const struct slt_rule *ru, const struct tok *names, size_t nn,
		     const struct tok *key)
{
	const char *kn = slt_rule_kind_name(ru->kind);
	for (size_t i = 0; i < cur->n_rules; i++) {
		const struct slt_rule *o = &cur->rules[i];
		/* first = M and offset M = N (N != 0), in either order */
		const struct slt_rule *f = o->kind == SLT_RULE_FIRST ? o :
					   ru->kind == SLT_RULE_FIRST ? ru : NULL;
		const struct slt_rule *of = o->kind == SLT_RULE_OFFSET ? o :
					    ru->kind == SLT_RULE_OFFSET ? ru : NULL;
		if (f && of && f != of && nn && o->n_names &&
		    tok_is(&names[0], o->names[0].name) && of->value != 0)
			return failf(ps, key->col, "a member first in the struct is at offset 0",
				     "%s contradicts line %u: '%s' first and at offset %llu", kn,
				     o->line, o->names[0].name, (unsigned long long)of->value);
		if (!single(ru->kind) || o->kind != ru->kind)
			continue;
		if ((ru->kind == SLT_RULE_OFFSET || ru->kind == SLT_RULE_MAX_LINES) &&
		    !tok_is(&names[0], o->names[0].name))
			continue;
		if (ru->kind == SLT_RULE_FIRST)
			return failf(ps, key->col, "give one first member per struct",
				     "first given twice: line %u says '%s'", o->line,
				     o->names[0].name);
		if (ru->kind == SLT_RULE_OFFSET || ru->kind == SLT_RULE_MAX_LINES)
			return failf(ps, key->col, "give each limit once per struct",
				     "%s %s given twice: line %u says %llu", kn, o->names[0].name,
				     o->line, (unsigned long long)o->value);
		return failf(ps, key->col, "give each limit once per struct",
			     "%s given twice: line %u says %llu", kn, o->line,
			     (unsigned long long)o->value);
	}
	return 0;
}

/* Smallest cacheline size check accepts (-c: a power of two, 8..4096):
 * an offset that is not a multiple of it can start no cacheline. */
#define MIN_CACHELINE 8u

/* Is path b member a itself or a member inside it ("a.x", "a[2]")? */
static bool within(const char *a, const char *b)
{
	size_t n = strlen(a);
	return !strncmp(a, b, n) && (b[n] == 0 || b[n] == '.' || b[n] == '[');
}

/* Rules of one struct that can never hold together, whatever the layout
 * (the new rule ru, its names, against each earlier one):
 * offset M = N with cacheline-start = M when N is not a multiple of the
 * smallest cacheline size; offset M = N with max-size = S < N; first = A
 * with offset B = 0 for a B other than A (or a member inside A) in a
 * section that is not [union X]. */
static int contradiction(struct parser *ps, const struct slt_rules_struct *cur,
			 const struct slt_rule *ru, const struct tok *names, size_t nn,
			 const struct tok *key)
{
	char nm[256];
	snprintf(nm, sizeof(nm), "%.*s", nn ? (int)(names[0].n > 200 ? 200 : names[0].n) : 0,
		 nn ? names[0].p : "");
	const char *kn = slt_rule_kind_name(ru->kind);
	for (size_t i = 0; i < cur->n_rules; i++) {
		const struct slt_rule *o = &cur->rules[i];
		const char *on = o->n_names ? o->names[0].name : "";
		enum slt_rule_kind a = ru->kind, b = o->kind;
		/* offset M = N and cacheline-start = M */
		if (((a == SLT_RULE_OFFSET && b == SLT_RULE_CACHELINE_START) ||
		     (b == SLT_RULE_OFFSET && a == SLT_RULE_CACHELINE_START)) && !strcmp(nm, on)) {
			uint64_t off = a == SLT_RULE_OFFSET ? ru->value : o->value;
			if (off % MIN_CACHELINE)
				return failf(ps, key->col, "a member at a cacheline start has an offset "
					     "that is a multiple of the cacheline size (8 to 4096 bytes)",
					     "%s contradicts line %u: '%s' at offset %llu can start no "
					     "cacheline", kn, o->line, nm, (unsigned long long)off);
		}
		/* offset M = N and max-size = S < N */
		if ((a == SLT_RULE_OFFSET && b == SLT_RULE_MAX_SIZE) ||
		    (b == SLT_RULE_OFFSET && a == SLT_RULE_MAX_SIZE)) {
			uint64_t off = a == SLT_RULE_OFFSET ? ru->value : o->value;
			uint64_t max = a == SLT_RULE_MAX_SIZE ? ru->value : o->value;
			const char *m = a == SLT_RULE_OFFSET ? nm : on;
			if (off > max)
				return failf(ps, key->col, "a member's offset is less than the struct's size",
					     "%s contradicts line %u: '%s' at offset %llu in a struct of at "
					     "most %llu bytes", kn, o->line, m, (unsigned long long)off,
					     (unsigned long long)max);
		}
		/* first = A and offset B = 0, B not A nor inside it */
		if (cur->kind != SLT_KIND_UNION &&
		    ((a == SLT_RULE_FIRST && b == SLT_RULE_OFFSET && o->value == 0) ||
		     (b == SLT_RULE_FIRST && a == SLT_RULE_OFFSET && ru->value == 0))) {
			const char *first = a == SLT_RULE_FIRST ? nm : on;
			const char *other = a == SLT_RULE_FIRST ? on : nm;
			if (!within(first, other))
				return failf(ps, key->col, "only the first member (or a member inside it) "
					     "is at offset 0 in a struct",
					     "%s contradicts line %u: '%s' first and '%s' at offset 0", kn,
					     o->line, first, other);
		}
	}
	return 0;
}

static int statement(struct parser *ps, const char *p, const char *e)
{
	struct tok left[3], right[MAX_NAMES];
	size_t nl = 0, nr = 0;
	const struct tok *eq = NULL;
	struct tok eqt = { 0 };
	for (const char *q = p; q < e;) {
		if (is_space(*q)) {
			q++;
			continue;
		}
		unsigned col = (unsigned)(q - p) + 1;
		if (*q == '=') {
			if (eq) {
				struct tok t = { q, 1, col };
				return fail(ps, col, accepted, "a second", &t);
			}
			eqt = (struct tok){ q, 1, col };
			eq = &eqt;
			q++;
			continue;
		}
		if (!name_char(*q)) {
			struct tok t = { q, 1, col };
			return fail(ps, col, "names are C identifiers or member paths (a.b, a[2]); numbers decimal or 0x",
				    "unexpected character", &t);
		}
		const char *s = q;
		while (q < e && name_char(*q))
			q++;
		struct tok t = { s, (size_t)(q - s), col };
		if (!eq) {
			if (nl == 3)
				return fail(ps, col, accepted, "too many words before '=':", &t);
			left[nl++] = t;
		} else {
			if (nr == MAX_NAMES)
				return fail(ps, col, "at most 256 names in one statement", "too many names:", &t);
			right[nr++] = t;
		}
	}
	if (!nl)
		return fail(ps, eq ? eq->col : 1, accepted, "a statement starts with its key", NULL);
	if (!ps->cur)
		return fail(ps, left[0].col, "start with a section [struct NAME] naming the struct the rules are for",
			    "rule outside a section:", &left[0]);
	if (!eq)
		return fail(ps, left[0].col, accepted, "missing '=' after", &left[nl - 1]);
	struct slt_rules_struct *cur = ps->cur;
	if (tok_is(&left[0], "group")) {
		if (nl != 2)
			return fail(ps, left[0].col, "want group NAME = MEMBER...", "group needs one NAME before '='", NULL);
		if (!nr)
			return fail(ps, eq->col, "want group NAME = MEMBER...", "a group needs members", NULL);
		for (size_t i = 0; i < cur->n_groups; i++)
			if (tok_is(&left[1], cur->groups[i].name))
				return fail(ps, left[1].col, "give each group of a struct one name",
					    "group defined twice:", &left[1]);
		for (size_t i = 0; i < nr; i++) {
			for (size_t j = 0; j < i; j++)
				if (right[j].n == right[i].n && !memcmp(right[j].p, right[i].p, right[i].n))
					return failf(ps, right[i].col, "list each member once",
						     "member '%.*s' is listed twice in group '%.*s'",
						     (int)right[i].n, right[i].p, (int)left[1].n, left[1].p);
			for (size_t g = 0; g < cur->n_groups; g++)
				for (size_t m = 0; m < cur->groups[g].n_members; m++)
					if (tok_is(&right[i], cur->groups[g].members[m].name))
						return failf(ps, right[i].col,
							     "a member belongs to one group of a struct: "
							     "separate compares whole groups",
							     "member '%.*s' is already in group '%s' (line %u)",
							     (int)right[i].n, right[i].p,
							     cur->groups[g].name, cur->groups[g].line);
		}
		cur->groups = grow(ps, cur->groups, cur->n_groups, &ps->cap_groups, sizeof(*cur->groups));
		if (!cur->groups)
			return oom(ps);
		struct slt_rule_group *g = &cur->groups[cur->n_groups];
		g->name = slt_arena_strndup(ps->a, left[1].p, left[1].n);
		g->members = names_of(ps, right, nr);
		g->n_members = nr;
		g->line = ps->line;
		g->column = left[0].col;
		if (!g->name || !g->members)
			return oom(ps);
		cur->n_groups++;
		return 0;
	}
	size_t k = 0;
	while (k < sizeof(keys) / sizeof(keys[0]) && !tok_is(&left[0], keys[k].key))
		k++;
	if (k == sizeof(keys) / sizeof(keys[0])) {
		/* the closest key first, then what is accepted */
		struct slt_suggest sg;
		char word[64], **names = NULL, hint[sizeof(accepted) + 96];
		snprintf(word, sizeof(word), "%.*s", (int)(left[0].n > 60 ? 60 : left[0].n), left[0].p);
		slt_suggest_init(&sg, word, 1);
		int rc = slt_suggest_add(&sg, "group");
		for (size_t i = 0; !rc && i < sizeof(keys) / sizeof(keys[0]); i++)
			rc = slt_suggest_add(&sg, keys[i].key);
		size_t n = rc ? 0 : slt_suggest_take(&sg, &names);
		slt_suggest_release(&sg);
		snprintf(hint, sizeof(hint), "%s%s%s%s", n ? "did you mean " : "", n ? names[0] : "",
			 n ? "? " : "", accepted);
		for (size_t i = 0; i < n; i++)
			free(names[i]);
		free(names);
		if (rc)
			return oom(ps);
		return fail(ps, left[0].col, hint, "unknown key", &left[0]);
	}
	if (nl != 1 + (size_t)keys[k].arg)
		return fail(ps, left[0].col, accepted,
			    keys[k].arg ? "this key takes one name before '=':" :
					  "this key takes nothing before '=':", &left[0]);
	struct slt_rule ru = { .kind = keys[k].kind, .line = ps->line, .column = left[0].col };
	struct tok names[MAX_NAMES];
	size_t nn = 0;
	if (keys[k].arg)
		names[nn++] = left[1];
	if (keys[k].names == 0) {
		if (nr != 1)
			return fail(ps, eq->col, accepted, "want one number after '=' for", &left[0]);
		int rc = parse_number(ps, &right[0], &ru.value);
		if (rc)
			return rc;
		if (!ru.value && (ru.kind == SLT_RULE_MAX_LINES || ru.kind == SLT_RULE_MAX_CACHELINES))
			return failf(ps, right[0].col, "want 1 or more cachelines: anything with bytes "
				     "spans at least one", "%s of 0 can never hold", keys[k].key);
	} else if (keys[k].names == 1) {
		if (nr != 1)
			return fail(ps, eq->col, accepted, "want one member after '=' for", &left[0]);
		names[nn++] = right[0];
	} else {
		if (nr < 2)
			return fail(ps, eq->col, accepted, "want two or more groups after '=' for", &left[0]);
		for (size_t i = 0; i < nr; i++) {
			for (size_t j = 0; j < i; j++)
				if (right[j].n == right[i].n && !memcmp(right[j].p, right[i].p, right[i].n))
					return failf(ps, right[i].col, "name each group once: a group "
						     "always shares its lines with itself",
						     "group '%.*s' is separated from itself (named "
						     "twice, first at column %u)", (int)right[i].n,
						     right[i].p, right[j].col);
			names[nn++] = right[i];
		}
	}
	int rc = duplicate(ps, cur, &ru, names, nn, &left[0]);
	if (!rc)
		rc = contradiction(ps, cur, &ru, names, nn, &left[0]);
	if (rc)
		return rc;
	ru.names = names_of(ps, names, nn);
	ru.n_names = nn;
	if (!ru.names)
		return oom(ps);
	cur->rules = grow(ps, cur->rules, cur->n_rules, &ps->cap_rules, sizeof(*cur->rules));
	if (!cur->rules)
		return oom(ps);
	cur->rules[cur->n_rules++] = ru;
	return 0;
}

int slt_rules_read_mem(const void *data, size_t size, const char *name,
		       struct slt_rules **out, struct slt_error *err)
{
	*out = NULL;
	struct slt_rules *r = calloc(1, sizeof(*r));
	struct rules_priv *pv = calloc(1, sizeof(*pv));
	struct slt_arena *a = slt_arena_new();
	if (!r || !pv || !a || !(r->path = slt_arena_strdup(a, name ? name : ""))) {
		free(r);
		free(pv);
		slt_arena_free(a);
		return slt_error_set(err, SLT_ENOMEM, name, -1, NULL, "out of memory");
	}
	pv->arena = a;
	r->priv_ = pv;
	struct parser ps = { .name = r->path, .a = a, .r = r, .err = err };
	const char *p = data, *end = p + size;
	int rc = 0;
	if (size >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;   /* a UTF-8 byte order mark, as some editors write */
	while (p < end && !rc) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		ps.line++;
		const char *hash = memchr(p, '#', (size_t)(e - p));
		const char *ce = hash ? hash : e;
		const char *q = p;
		while (q < ce && is_space(*q))
			q++;
		if (memchr(p, '\0', (size_t)(e - p))) {
			rc = fail(&ps, (unsigned)((const char *)memchr(p, '\0', (size_t)(e - p)) - p) + 1,
				  "a rules file is text", "NUL byte in the line", NULL);
		} else if (q < ce && *q == '[') {
			rc = section(&ps, q, ce, (unsigned)(q - p) + 1);
		} else if (q < ce) {
			rc = statement(&ps, p, ce);
		}
		p = nl ? nl + 1 : end;
	}
	if (!rc && r->n_structs == 0)
		rc = slt_error_set(err, SLT_ECORRUPT, r->path, -1,
				   "start with a section [struct NAME] and give its rules below it",
				   "the rules file names no struct");
	if (rc) {
		slt_rules_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

int slt_rules_read(const char *path, struct slt_rules **out, struct slt_error *err)
{
	*out = NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
		return slt_error_set(err, SLT_EIO, path, -1, "check the path given to --rules",
				     "cannot open the rules file: %s", strerror(errno));
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return slt_error_set(err, SLT_EIO, path, -1, "give the rules file's path to --rules",
				     "is a directory, not a rules file");
	}
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	int rc = buf ? 0 : SLT_ENOMEM;
	while (!rc) {
		if (n == cap) {
			char *nb = cap < MAX_FILE ? realloc(buf, cap * 2) : NULL;
			if (!nb) {
				rc = cap < MAX_FILE ? SLT_ENOMEM : SLT_ECORRUPT;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (!rc && ferror(f))
		rc = slt_error_set(err, SLT_EIO, path, -1, NULL, "cannot read the rules file");
	fclose(f);
	if (rc == SLT_ENOMEM)
		slt_error_set(err, rc, path, -1, NULL, "out of memory");
	else if (rc == SLT_ECORRUPT)
		slt_error_set(err, rc, path, -1, "a rules file is a few kilobytes of text",
			      "the rules file is over 64 MiB");
	if (!rc)
		rc = slt_rules_read_mem(buf, n, path, out, err);
	free(buf);
	return rc;
}

void slt_rules_free(struct slt_rules *r)
{
	if (!r)
		return;
	struct rules_priv *pv = r->priv_;
	if (pv) {
		slt_strmap_free(&pv->index);
		slt_arena_free(pv->arena);
		free(pv);
	}
	free(r);
}

const struct slt_rules_struct *slt_rules_find(const struct slt_rules *r, const char *name)
{
	if (!strncmp(name, "struct ", 7))
		name += 7;
	else if (!strncmp(name, "union ", 6))
		name += 6;
	size_t i;
	if (!r || !r->priv_ ||
	    !slt_strmap_get(&((struct rules_priv *)r->priv_)->index, name, strlen(name), &i))
		return NULL;
	return &r->structs[i];
}
