// SPDX-License-Identifier: GPL-2.0
/*
 * LKST masksets: named tables that say, per event, which handler runs
 * and into which buffer it records.
 *
 * lkst_cur_ms --> struct lkst_maskset --> ->table (RCU) --> entries
 *                                     \
 *  lkst_cur_table ---------------------> the same table, for the probes
 *
 * A table is immutable once published.  Replacing a maskset's table or
 * switching the current maskset publishes a new pointer under
 * lkst_switch_lock (a raw spinlock, because lkst_maskset_switch() may be
 * called by handlers in any context); the old table is freed only after
 * lkst_synchronize_readers(), under lkst_mutex.
 *
 * Probes are attached to match the current table: before publishing
 * when the switch comes from process context (nothing is missed), and
 * afterwards from a work item when a handler switched in atomic context.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <kunit/visibility.h>
#include <linux/irq_work.h>
#include <linux/module.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tracefs.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>

#include "lkst_internal.h"

static LIST_HEAD(lkst_masksets);
static unsigned int lkst_nr_user_masksets;

/* Written under lkst_switch_lock; read under it or under lkst_mutex. */
static struct lkst_maskset *lkst_cur_ms;
static DEFINE_RAW_SPINLOCK(lkst_switch_lock);

static void lkst_sync_work_fn(struct work_struct *work)
{
	guard(mutex)(&lkst_mutex);
	lkst_sync_probes();
}

static DECLARE_WORK(lkst_sync_work, lkst_sync_work_fn);

/* Handlers may switch from NMI-like context: only irq_work is safe there. */
static void lkst_sync_irq_work_fn(struct irq_work *iw)
{
	schedule_work(&lkst_sync_work);
}

static DEFINE_IRQ_WORK(lkst_sync_irq_work, lkst_sync_irq_work_fn);

static struct lkst_table *lkst_ms_table(struct lkst_maskset *ms)
{
	return rcu_dereference_protected(ms->table, lockdep_is_held(&lkst_mutex));
}

struct lkst_table *lkst_table_alloc(void)
{
	return kzalloc_obj(struct lkst_table, GFP_KERNEL_ACCOUNT);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_table_alloc);

/* Drop what the entries of @t hold, then free it.  Unpublished or synced. */
void __lkst_table_free(struct lkst_table *t)
{
	unsigned int id;

	if (!t)
		return;
	for_each_set_bit(id, t->used, LKST_NR_IDS) {
		if (t->ent[id].handler)
			__lkst_handler_unpin(t->ent[id].handler);
		__lkst_buffer_unpin(t->ent[id].buf);
	}
	kfree(t);
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_table_free);

/* Route @id to @h/@buf in an unpublished table, taking references. */
static int __lkst_table_set(struct lkst_table *t, unsigned int id,
			    struct lkst_handler *h, struct lkst_buffer *buf)
{
	int ret;

	ret = __lkst_handler_pin(h);
	if (ret)
		return ret;
	__lkst_buffer_pin(buf);
	t->ent[id].handler = h;
	t->ent[id].buf = buf;
	__set_bit(id, t->used);
	return 0;
}

/**
 * lkst_sync_probes - make the attached probes match the current table
 *
 * Caller holds lkst_mutex.  Attach failures are reported and leave those
 * events silent; there is nobody to return an error to from the work item.
 */
void lkst_sync_probes(void)
{
	DECLARE_BITMAP(need, LKST_NR_IDS);
	struct lkst_table *t;

	lockdep_assert_held(&lkst_mutex);
	/* Tables are only freed under lkst_mutex: t stays valid. */
	t = rcu_dereference_protected(lkst_cur_table,
				      lockdep_is_held(&lkst_mutex));
	if (t)
		bitmap_copy(need, t->used, LKST_NR_IDS);
	else
		bitmap_zero(need, LKST_NR_IDS);

	if (__lkst_events_attach(need))
		pr_warn("some events of the current maskset are not traced\n");
	__lkst_events_detach_unneeded(need);
	/* Readers of raw waiting for records may now read end of file. */
	lkst_buffers_wake_readers();
}
EXPORT_SYMBOL_IF_KUNIT(lkst_sync_probes);

/**
 * lkst_buffer_recording - may records still arrive in @buf?
 * @buf: the buffer
 *
 * True while @buf is on and the current table sends an event to it with
 * DEFAULT, or has an event with an extended handler, which may record
 * into any buffer.  Readers of raw read end of file from an empty buffer
 * when this is false; lkst_sync_probes() wakes them after every change.
 */
bool lkst_buffer_recording(struct lkst_buffer *buf)
{
	const struct lkst_handler *h;
	const struct lkst_table *t;
	bool ret = false;
	unsigned int id;

	if (!lkst_buffer_is_on(buf) || READ_ONCE(buf->removed))
		return false;
	/* Tables are freed after lkst_synchronize_readers(). */
	rcu_read_lock_sched();
	t = rcu_dereference_sched(lkst_cur_table);
	for_each_set_bit(id, t->used, LKST_NR_IDS) {
		h = READ_ONCE(t->ent[id].handler);
		if (!h || h == &lkst_handler_nothing)
			continue;
		if (h != &lkst_handler_default || t->ent[id].buf == buf) {
			ret = true;
			break;
		}
	}
	rcu_read_unlock_sched();
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_buffer_recording);

/* For tests: wait until a deferred lkst_sync_probes() has run. */
void lkst_sync_flush(void)
{
	irq_work_sync(&lkst_sync_irq_work);
	flush_work(&lkst_sync_work);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_sync_flush);

/* Make @ms current.  Caller holds lkst_switch_lock; @ms is referenced. */
static void lkst_switch_locked(struct lkst_maskset *ms)
{
	struct lkst_maskset *old = lkst_cur_ms;

	lockdep_assert_held(&lkst_switch_lock);
	if (old == ms)
		return;
	atomic_inc(&ms->users);
	lkst_cur_ms = ms;
	rcu_assign_pointer(lkst_cur_table,
			   rcu_dereference_protected(ms->table,
						     lockdep_is_held(&lkst_switch_lock)));
	/* Removal needs lkst_mutex and users == 0, so this never frees. */
	if (old)
		atomic_dec(&old->users);
}

/**
 * lkst_maskset_switch - make a maskset current, from any context
 * @ms: a maskset obtained with lkst_maskset_get()
 *
 * The new table takes effect at once.  Events of @ms whose probes are not
 * attached yet start to be recorded only once a work item has attached
 * them (irq_work, then a work item, because attaching sleeps); events no
 * longer used are detached by the same work item.
 *
 * Context: any, including hard interrupt and NMI-like handler context.
 * Return: 0; -EINVAL if @ms is NULL; -EBUSY in NMI if another CPU was
 * switching at the same moment (nothing changed).
 */
int lkst_maskset_switch(struct lkst_maskset *ms)
{
	unsigned long flags;

	if (!ms)
		return -EINVAL;

	if (in_nmi()) {
		if (!raw_spin_trylock(&lkst_switch_lock))
			return -EBUSY;
		lkst_switch_locked(ms);
		raw_spin_unlock(&lkst_switch_lock);
	} else {
		raw_spin_lock_irqsave(&lkst_switch_lock, flags);
		lkst_switch_locked(ms);
		raw_spin_unlock_irqrestore(&lkst_switch_lock, flags);
	}
	irq_work_queue(&lkst_sync_irq_work);
	return 0;
}
EXPORT_SYMBOL_GPL(lkst_maskset_switch);

/**
 * __lkst_maskset_set_current - switch the current maskset from process
 * context, attaching the new probes before the switch
 * @ms: the maskset
 *
 * Return: 0, or -errno if a probe could not be attached (no change).
 */
int __lkst_maskset_set_current(struct lkst_maskset *ms)
{
	unsigned long flags;
	int ret;

	lockdep_assert_held(&lkst_mutex);
	ret = __lkst_events_attach(lkst_ms_table(ms)->used);
	if (ret)
		return ret;
	raw_spin_lock_irqsave(&lkst_switch_lock, flags);
	lkst_switch_locked(ms);
	raw_spin_unlock_irqrestore(&lkst_switch_lock, flags);
	lkst_sync_probes();
	__lkst_save_comms(!bitmap_empty(lkst_ms_table(ms)->used, LKST_NR_IDS));
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_maskset_set_current);

/* The current maskset; stable while lkst_mutex is held. */
struct lkst_maskset *lkst_maskset_current(void)
{
	return READ_ONCE(lkst_cur_ms);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_maskset_current);

/**
 * __lkst_maskset_replace - replace the table of a maskset
 * @ms: the maskset
 * @t: the new table, referencing what it routes to; owned by @ms after
 *     success, freed by the caller on failure
 *
 * If @ms is current, its new probes are attached first, so the switch is
 * atomic for the data plane: every event sees either the old or the new
 * table.
 *
 * Return: 0 or -errno (nothing changed).
 */
int __lkst_maskset_replace(struct lkst_maskset *ms, struct lkst_table *t)
{
	struct lkst_table *old;
	unsigned long flags;
	int ret;

	lockdep_assert_held(&lkst_mutex);
	if (READ_ONCE(lkst_cur_ms) == ms) {
		ret = __lkst_events_attach(t->used);
		if (ret)
			return ret;
	}

	raw_spin_lock_irqsave(&lkst_switch_lock, flags);
	old = rcu_replace_pointer(ms->table, t, true);
	if (lkst_cur_ms == ms)
		rcu_assign_pointer(lkst_cur_table, t);
	raw_spin_unlock_irqrestore(&lkst_switch_lock, flags);

	lkst_sync_probes();
	if (READ_ONCE(lkst_cur_ms) == ms)
		__lkst_save_comms(!bitmap_empty(t->used, LKST_NR_IDS));
	/* Probes run under SRCU: synchronize_rcu() is not enough. */
	lkst_synchronize_readers();
	__lkst_table_free(old);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_maskset_replace);

/*
 * lkst_unregister_handler() of a handler still in use: clear its entries
 * in place.  A single pointer store is atomic for the probes, which read
 * the entry with READ_ONCE(); the module reference goes once no probe can
 * still be inside the handler.
 */
void __lkst_maskset_drop_handler(struct lkst_handler *h)
{
	struct lkst_maskset *ms;
	unsigned int id, n = 0;
	struct lkst_table *t;

	lockdep_assert_held(&lkst_mutex);
	list_for_each_entry(ms, &lkst_masksets, list) {
		t = lkst_ms_table(ms);
		for_each_set_bit(id, t->used, LKST_NR_IDS) {
			if (t->ent[id].handler != h)
				continue;
			WRITE_ONCE(t->ent[id].handler, NULL);
			n++;
		}
	}
	lkst_synchronize_readers();
	while (n--)
		__lkst_handler_unpin(h);
}

/**
 * lkst_unregister_handler - remove a handler registered with
 * lkst_register_handler()
 * @h: the handler
 *
 * The handler must not be used by any maskset: that is guaranteed when
 * this is called from the owner's module_exit(), because a used handler
 * pins its module.  If it is used anyway (a module unregistering early),
 * this warns and removes the handler from every maskset first, so the
 * call always succeeds and @h is not called any more when it returns.
 *
 * Context: process context; takes lkst_mutex; may sleep.
 */
void lkst_unregister_handler(struct lkst_handler *h)
{
	guard(mutex)(&lkst_mutex);
	if (WARN_ON(h->users))
		__lkst_maskset_drop_handler(h);
	__lkst_handler_remove(h);
}
EXPORT_SYMBOL_GPL(lkst_unregister_handler);

struct lkst_maskset *__lkst_maskset_lookup(const char *name)
{
	struct lkst_maskset *ms;

	lockdep_assert_held(&lkst_mutex);
	list_for_each_entry(ms, &lkst_masksets, list)
		if (!strcmp(ms->name, name))
			return ms;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_maskset_lookup);

/**
 * lkst_maskset_get - look up a maskset and take a reference on it
 * @name: maskset name
 *
 * The reference keeps the maskset from being removed, so that a handler
 * can later pass it to lkst_maskset_switch() from atomic context.
 *
 * Context: process context; takes lkst_mutex.
 * Return: the maskset, or NULL if there is none by that name.
 */
struct lkst_maskset *lkst_maskset_get(const char *name)
{
	struct lkst_maskset *ms;

	guard(mutex)(&lkst_mutex);
	ms = __lkst_maskset_lookup(name);
	if (ms)
		atomic_inc(&ms->users);
	return ms;
}
EXPORT_SYMBOL_GPL(lkst_maskset_get);

/**
 * lkst_maskset_put - drop a reference taken by lkst_maskset_get()
 * @ms: the maskset, or NULL
 *
 * Context: any.
 */
void lkst_maskset_put(struct lkst_maskset *ms)
{
	if (ms)
		WARN_ON_ONCE(atomic_dec_return(&ms->users) < 0);
}
EXPORT_SYMBOL_GPL(lkst_maskset_put);

static struct lkst_maskset *__lkst_maskset_alloc(const char *name, bool builtin)
{
	struct lkst_maskset *ms;
	struct lkst_table *t;

	ms = kzalloc_obj(*ms, GFP_KERNEL_ACCOUNT);
	t = lkst_table_alloc();
	if (!ms || !t) {
		kfree(ms);
		kfree(t);
		return ERR_PTR(-ENOMEM);
	}
	strscpy(ms->name, name);
	ms->builtin = builtin;
	atomic_set(&ms->users, 0);
	kref_init(&ms->kref);
	RCU_INIT_POINTER(ms->table, t);
	list_add_tail(&ms->list, &lkst_masksets);
	return ms;
}

/**
 * __lkst_maskset_create - create an empty user maskset
 * @name: its name
 *
 * Its file masksets/NAME is the caller's to create.
 *
 * Return: the maskset or ERR_PTR(): -EINVAL bad name, -EEXIST name taken,
 * -ENOSPC too many user masksets, -ENOMEM.
 */
struct lkst_maskset *__lkst_maskset_create(const char *name)
{
	struct lkst_maskset *ms;

	lockdep_assert_held(&lkst_mutex);
	if (!lkst_name_valid(name))
		return ERR_PTR(-EINVAL);
	if (__lkst_maskset_lookup(name))
		return ERR_PTR(-EEXIST);
	if (lkst_nr_user_masksets >= LKST_MAX_USER_MASKSETS)
		return ERR_PTR(-ENOSPC);
	ms = __lkst_maskset_alloc(name, false);
	if (IS_ERR(ms))
		return ms;
	lkst_nr_user_masksets++;
	return ms;
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_maskset_create);

/* The last reference is gone: the list's and those of open files. */
void lkst_maskset_free(struct kref *kref)
{
	kfree(container_of(kref, struct lkst_maskset, kref));
}
EXPORT_SYMBOL_IF_KUNIT(lkst_maskset_free);

/**
 * __lkst_maskset_remove - remove a user maskset
 * @ms: the maskset
 *
 * Its table goes at once; the struct stays, marked removed, until the
 * last open file of masksets/NAME is closed (writes through such a file
 * fail with -ENODEV).
 *
 * Return: 0; -EPERM for a built-in maskset; -EBUSY while it is current
 * or referenced by lkst_maskset_get().
 */
int __lkst_maskset_remove(struct lkst_maskset *ms)
{
	struct lkst_table *t;

	lockdep_assert_held(&lkst_mutex);
	if (ms->builtin)
		return -EPERM;
	if (atomic_read(&ms->users))
		return -EBUSY;
	list_del(&ms->list);
	lkst_nr_user_masksets--;
	ms->removed = true;
	tracefs_remove(ms->file);
	ms->file = NULL;
	t = rcu_replace_pointer(ms->table, NULL, true);
	/* It may have been current a moment ago: wait for the probes. */
	lkst_synchronize_readers();
	__lkst_table_free(t);
	kref_put(&ms->kref, lkst_maskset_free);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_maskset_remove);

static const char *lkst_skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Split off the next space-separated word of *s; NULL at the end. */
static char *lkst_next_word(char **s)
{
	char *w = (char *)lkst_skip_spaces(*s);
	char *e;

	if (!*w)
		return NULL;
	e = w + strcspn(w, " \t");
	if (*e)
		*e++ = '\0';
	*s = e;
	return w;
}

/**
 * __lkst_maskset_parse_line - add one "EVENT HANDLER [BUFFER]" line to @t
 * @ms: the maskset being written (named in error messages)
 * @t: an unpublished table; its used bits tell which events have a line
 * @line: the line, without its newline; modified
 *
 * Empty lines and lines starting with '#' are ignored.  An error is
 * logged with the position of the offending word.
 *
 * Return: 0; -EINVAL for a bad line; -ENODEV if the handler's module is
 * going away.
 */
int __lkst_maskset_parse_line(struct lkst_maskset *ms, struct lkst_table *t,
			      char *line)
{
	char orig[LKST_LINE_MAX + 1], loc[LKST_NAME_MAX + 16];
	const struct lkst_event_desc *d;
	char *ev, *hn, *bn, *extra;
	enum lkst_err_type err;
	struct lkst_buffer *buf;
	struct lkst_handler *h;
	int ret = -EINVAL;
	char *p, *at;

	lockdep_assert_held(&lkst_mutex);
	line = strim(line);
	if (!*line || *line == '#')
		return 0;
	snprintf(loc, sizeof(loc), "masksets/%s", ms->name);
	if (strlen(line) > LKST_LINE_MAX) {
		/* The start of it, so that the user sees which line */
		strscpy(orig, line);
		lkst_log_err(loc, orig, LKST_ERR_LINE_TOO_LONG, 0);
		return -EINVAL;
	}
	strscpy(orig, line);
	p = line;

	ev = lkst_next_word(&p);
	hn = lkst_next_word(&p);
	bn = lkst_next_word(&p);
	extra = lkst_next_word(&p);

	at = ev;
	d = lkst_event_lookup(ev);
	if (!d) {
		err = LKST_ERR_UNKNOWN_EVENT;
		goto bad;
	}
	at = ev + strlen(ev);
	if (!hn) {
		err = LKST_ERR_MISSING_HANDLER;
		goto bad;
	}
	at = hn;
	h = __lkst_handler_lookup(hn);
	if (!h) {
		err = LKST_ERR_UNKNOWN_HANDLER;
		goto bad;
	}
	at = bn;
	buf = lkst_buffer_default();
	if (bn) {
		buf = __lkst_buffer_lookup(bn);
		if (!buf) {
			err = LKST_ERR_UNKNOWN_BUFFER;
			goto bad;
		}
	}
	at = extra;
	if (extra) {
		err = LKST_ERR_TOO_MANY_FIELDS;
		goto bad;
	}
	at = ev;
	if (test_bit(d->id, t->used)) {
		err = LKST_ERR_DUP_EVENT;
		goto bad;
	}
	ret = __lkst_table_set(t, d->id, h, buf);
	if (ret) {
		at = hn;
		err = LKST_ERR_HANDLER_GOING;
		goto bad;
	}
	if (d->id >= LKST_EV_DYN_FIRST)
		t->dyn_gen[d->id - LKST_EV_DYN_FIRST] = d->gen;
	return 0;

bad:
	lkst_log_err(loc, orig, err, at - line);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_maskset_parse_line);

/**
 * __lkst_maskset_parse - build a table from maskset text
 * @ms: the maskset being written (named in error messages)
 * @text: NUL-terminated lines "EVENT HANDLER [BUFFER]"; modified
 * @tablep: the new table on success
 *
 * See __lkst_maskset_parse_line(); all lines or none.
 *
 * Return: 0 or -EINVAL/-ENODEV/-ENOMEM.
 */
int __lkst_maskset_parse(struct lkst_maskset *ms, char *text,
			 struct lkst_table **tablep)
{
	struct lkst_table *t;
	char *line;
	int ret;

	lockdep_assert_held(&lkst_mutex);
	t = lkst_table_alloc();
	if (!t)
		return -ENOMEM;

	while ((line = strsep(&text, "\n"))) {
		ret = __lkst_maskset_parse_line(ms, t, line);
		if (ret) {
			__lkst_table_free(t);
			return ret;
		}
	}
	*tablep = t;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_maskset_parse);

/* Give @t the entries of @cur for the events @t has no line for. */
static int __lkst_table_merge(struct lkst_table *t, struct lkst_table *cur)
{
	unsigned int id;
	int ret;

	for_each_set_bit(id, cur->used, LKST_NR_IDS) {
		if (test_bit(id, t->used) || !cur->ent[id].handler)
			continue;
		ret = __lkst_table_set(t, id, cur->ent[id].handler,
				       cur->ent[id].buf);
		if (ret)
			return ret;
		if (id >= LKST_EV_DYN_FIRST)
			t->dyn_gen[id - LKST_EV_DYN_FIRST] =
				cur->dyn_gen[id - LKST_EV_DYN_FIRST];
	}
	return 0;
}

/**
 * __lkst_maskset_commit - install a table written through masksets/NAME
 * @ms: the maskset
 * @t: the table, owned by @ms after success, freed by the caller on failure
 * @merge: keep the lines of the current table for the events @t does
 *	   not list (a write without O_TRUNC, as set_ftrace_filter does)
 *
 * Return: 0; -ENODEV if @ms was removed; -EPERM for a built-in maskset;
 * -ENOENT if a dynamic event of @t was removed since it was parsed; or
 * the error of __lkst_maskset_replace().
 */
int __lkst_maskset_commit(struct lkst_maskset *ms, struct lkst_table *t,
			  bool merge)
{
	char loc[LKST_NAME_MAX + 16];
	unsigned int id;
	int ret;

	lockdep_assert_held(&lkst_mutex);
	if (ms->removed)
		return -ENODEV;
	if (ms->builtin)
		return -EPERM;
	if (merge) {
		ret = __lkst_table_merge(t, lkst_ms_table(ms));
		if (ret)
			return ret;
	}
	/*
	 * A dynamic event removed between the write and the close, maybe
	 * with another event in its ID since: a line binds to the event it
	 * named, not to the ID.
	 */
	for_each_set_bit(id, t->used, LKST_NR_IDS) {
		const struct lkst_event_desc *d = lkst_event_desc(id);

		if (!d || (id >= LKST_EV_DYN_FIRST &&
			   d->gen != t->dyn_gen[id - LKST_EV_DYN_FIRST])) {
			snprintf(loc, sizeof(loc), "masksets/%s", ms->name);
			lkst_log_err(loc, "", LKST_ERR_EVENT_REPLACED, 0);
			return -ENOENT;
		}
	}
	return __lkst_maskset_replace(ms, t);
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_maskset_commit);

/**
 * __lkst_masksets_use_event - does a line of any maskset name an event?
 * @id: event ID
 *
 * Return: true if a maskset, current or not, has a line for @id.
 */
bool __lkst_masksets_use_event(unsigned int id)
{
	struct lkst_maskset *ms;

	lockdep_assert_held(&lkst_mutex);
	list_for_each_entry(ms, &lkst_masksets, list)
		if (test_bit(id, lkst_ms_table(ms)->used))
			return true;
	return false;
}

/**
 * __lkst_maskset_write - replace the table of a user maskset from text
 * @ms: the maskset
 * @text: its new table, see __lkst_maskset_parse(); modified
 *
 * Return: 0 or -errno; on error the maskset is unchanged.
 */
int __lkst_maskset_write(struct lkst_maskset *ms, char *text)
{
	struct lkst_table *t;
	int ret;

	lockdep_assert_held(&lkst_mutex);
	ret = __lkst_maskset_parse(ms, text, &t);
	if (ret)
		return ret;
	ret = __lkst_maskset_commit(ms, t, false);
	if (ret)
		__lkst_table_free(t);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_maskset_write);

/* masksets/NAME: "EVENT HANDLER[ BUFFER]", buffer only when not default */
void lkst_maskset_print(struct seq_buf *s, struct lkst_maskset *ms)
{
	struct lkst_table *t;
	unsigned int id;

	lockdep_assert_held(&lkst_mutex);
	t = lkst_ms_table(ms);
	for_each_set_bit(id, t->used, LKST_NR_IDS) {
		const struct lkst_table_entry *e = &t->ent[id];

		if (!e->handler)
			continue;
		seq_buf_printf(s, "%s %s", lkst_event_desc(id)->name,
			       e->handler->name);
		if (e->buf != lkst_buffer_default())
			seq_buf_printf(s, " %s", lkst_buffer_name(e->buf));
		seq_buf_putc(s, '\n');
	}
}
EXPORT_SYMBOL_IF_KUNIT(lkst_maskset_print);

/* Iterate masksets for the control files; caller holds lkst_mutex. */
struct list_head *__lkst_masksets_list(void)
{
	lockdep_assert_held(&lkst_mutex);
	return &lkst_masksets;
}

static int __init lkst_builtin_maskset(const char *name, bool all)
{
	const struct lkst_event_desc *d;
	struct lkst_maskset *ms;
	struct lkst_table *t;
	int ret;

	ms = __lkst_maskset_alloc(name, true);
	if (IS_ERR(ms))
		return PTR_ERR(ms);
	if (!strcmp(name, "RNOTHING"))
		return 0;
	t = lkst_ms_table(ms);
	for (d = lkst_event_next(NULL); d; d = lkst_event_next(d)) {
		if (!all && !d->primary)
			continue;
		ret = __lkst_table_set(t, d->id, &lkst_handler_default,
				       lkst_buffer_default());
		if (ret)
			return ret;
	}
	return 0;
}

/* The built-in masksets; RNOTHING is current until someone switches. */
int __init lkst_masksets_init(void)
{
	int ret;

	guard(mutex)(&lkst_mutex);
	ret = lkst_builtin_maskset("RDEFAULT", false);
	if (!ret)
		ret = lkst_builtin_maskset("RALL", true);
	if (!ret)
		ret = lkst_builtin_maskset("RNOTHING", false);
	if (ret)
		return ret;
	return __lkst_maskset_set_current(__lkst_maskset_lookup("RNOTHING"));
}
