/* SPDX-License-Identifier: MIT */
/* Line reader and tokenizer for the text sample formats (text.h). */
#include "samples/text.h"

#include <stdlib.h>
#include <string.h>

void slt_text_init(struct slt_text *t, const void *data, size_t size)
{
	t->begin = data;
	t->cur = data;
	t->end = t->begin + (data ? size : 0);
	t->line = 0;
}

bool slt_text_next(struct slt_text *t, struct slt_span *line, size_t *off)
{
	if (!t->cur || t->cur >= t->end)
		return false;
	const char *s = t->cur;
	const char *nl = memchr(s, '\n', (size_t)(t->end - s));
	const char *e = nl ? nl : t->end;
	t->cur = nl ? nl + 1 : t->end;
	if (e > s && e[-1] == '\r')
		e--;
	line->p = s;
	line->n = (size_t)(e - s);
	if (off)
		*off = (size_t)(s - t->begin);
	t->line++;
	return true;
}

bool slt_text_isspace(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

struct slt_span slt_span_trim(struct slt_span s)
{
	while (s.n && slt_text_isspace(s.p[0])) {
		s.p++;
		s.n--;
	}
	while (s.n && slt_text_isspace(s.p[s.n - 1]))
		s.n--;
	return s;
}

bool slt_span_starts(struct slt_span s, const char *lit)
{
	size_t n = strlen(lit);
	return s.n >= n && memcmp(s.p, lit, n) == 0;
}

bool slt_span_contains(struct slt_span s, const char *lit)
{
	size_t n = strlen(lit);
	if (n == 0)
		return true;
	for (size_t i = 0; i + n <= s.n; i++)
		if (s.p[i] == lit[0] && memcmp(s.p + i, lit, n) == 0)
			return true;
	return false;
}

bool slt_span_eq(struct slt_span s, const char *lit)
{
	return s.n == strlen(lit) && memcmp(s.p, lit, s.n) == 0;
}

bool slt_tok_next(struct slt_span *rest, struct slt_span *tok)
{
	size_t i = 0;
	while (i < rest->n && slt_text_isspace(rest->p[i]))
		i++;
	size_t j = i;
	while (j < rest->n && !slt_text_isspace(rest->p[j]))
		j++;
	tok->p = rest->p + i;
	tok->n = j - i;
	rest->p += j;
	rest->n -= j;
	return tok->n > 0;
}

static bool digits(struct slt_span t, unsigned base, uint64_t *v)
{
	uint64_t x = 0;
	if (t.n == 0)
		return false;
	for (size_t i = 0; i < t.n; i++) {
		char c = t.p[i];
		unsigned d;
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		if (x > (UINT64_MAX - d) / base)
			return false;
		x = x * base + d;
	}
	*v = x;
	return true;
}

bool slt_parse_u64(struct slt_span tok, uint64_t *v)
{
	return digits(tok, 10, v);
}

bool slt_parse_hex(struct slt_span tok, uint64_t *v)
{
	if (tok.n < 3 || tok.p[0] != '0' || (tok.p[1] != 'x' && tok.p[1] != 'X'))
		return false;
	tok.p += 2;
	tok.n -= 2;
	return digits(tok, 16, v);
}

bool slt_parse_uint(struct slt_span tok, uint64_t *v)
{
	if (tok.n >= 2 && tok.p[0] == '0' && (tok.p[1] == 'x' || tok.p[1] == 'X'))
		return slt_parse_hex(tok, v);
	return slt_parse_u64(tok, v);
}

bool slt_parse_pct(struct slt_span tok, bool need_pct, uint32_t *centi)
{
	if (tok.n && tok.p[tok.n - 1] == '%')
		tok.n--;
	else if (need_pct)
		return false;
	size_t i = 0;
	uint64_t ip = 0, fp = 0;
	unsigned nd = 0;
	if (i >= tok.n || tok.p[i] < '0' || tok.p[i] > '9')
		return false;
	while (i < tok.n && tok.p[i] >= '0' && tok.p[i] <= '9') {
		ip = ip * 10 + (uint64_t)(tok.p[i] - '0');
		if (ip > 1000000)
			return false;
		i++;
	}
	if (i < tok.n && tok.p[i] == '.') {
		i++;
		while (i < tok.n && tok.p[i] >= '0' && tok.p[i] <= '9') {
			if (nd < 2) {
				fp = fp * 10 + (uint64_t)(tok.p[i] - '0');
				nd++;
			}
			i++;
		}
	}
	if (i != tok.n)
		return false;
	while (nd < 2) {
		fp *= 10;
		nd++;
	}
	*centi = (uint32_t)(ip * 100 + fp);
	return true;
}

uint64_t slt_pct_of(uint32_t centi, uint64_t total)
{
	unsigned __int128 x = (unsigned __int128)centi * total + 5000;
	x /= 10000;
	return x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
}

uint64_t slt_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t slt_sat_mul(uint64_t a, uint64_t b)
{
	unsigned __int128 x = (unsigned __int128)a * b;
	return x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
}

void slt_span_copy(struct slt_span s, char *buf, size_t size)
{
	if (!size)
		return;
	size_t n = s.n < size - 1 ? s.n : size - 1;
	if (n)
		memcpy(buf, s.p, n);
	buf[n] = '\0';
}

size_t slt_quote_prefix(struct slt_span l)
{
	size_t i = 0;
	while (i < l.n && l.p[i] == '>') {
		i++;
		if (i + 1 < l.n && l.p[i] == ' ' && l.p[i + 1] == '>')
			i++;
	}
	if (i && i < l.n && l.p[i] == ' ')
		i++;
	return i;
}

bool slt_text_quoted(const char *data, size_t n)
{
	struct slt_text t;
	struct slt_span l;
	uint64_t text = 0, quoted = 0;
	slt_text_init(&t, data, n);
	while (slt_text_next(&t, &l, NULL)) {
		if (!slt_span_trim(l).n)
			continue;
		text++;
		quoted += slt_quote_prefix(l) > 0;
	}
	return quoted >= 2 && quoted * 4 >= text * 3;
}

int slt_text_unquote(const char *data, size_t n, char **out, size_t *out_n,
		     uint64_t *n_quoted)
{
	struct slt_text t;
	struct slt_span l;
	char *o = malloc(n ? n : 1);
	size_t k = 0;
	*n_quoted = 0;
	if (!o)
		return -1;
	slt_text_init(&t, data, n);
	while (slt_text_next(&t, &l, NULL)) {
		size_t q = slt_quote_prefix(l);
		*n_quoted += q > 0;
		memcpy(o + k, l.p + q, l.n - q);
		k += l.n - q;
		if (t.cur > l.p + l.n)        /* the line had an end */
			o[k++] = '\n';
	}
	*out = o;
	*out_n = k;
	return 0;
}
