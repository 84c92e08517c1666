// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_timer_victim - a timer that runs on an object already freed: the
 * bug of LKST's worked example for dynamic events (see
 * Documentation/trace/lkst/dynamic-events.rst), rebuilt so that it harms
 * nothing.
 *
 *   # modprobe lkst_timer_victim
 *   # echo 20 > /sys/module/lkst_timer_victim/parameters/run
 *
 * makes 20 objects, each with a timer due in 1 to 4 jiffies, then frees
 * them: the right way (timer_delete_sync(), then free) for all but, with
 * bug=1 (the default), the last one, freed with its timer still pending.
 * That timer then runs on the freed object.
 *
 * victim_obj_init(), victim_obj_free() and victim_obj_use() are not
 * inlined, so that dynamic events can probe them.  So that the example
 * stays harmless, "freeing" puts an object on a quarantine list; the
 * memory goes back at module unload, after every timer was shut down.
 */
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/timer.h>

#define VICTIM_MAX_RUN	1000

struct victim_obj {
	struct timer_list	timer;		/* first: &obj == &obj->timer */
	unsigned long		id;
	bool			freed;
	struct list_head	list;		/* on victim_freed */
};

static DEFINE_MUTEX(victim_lock);
static LIST_HEAD(victim_freed);
static unsigned long victim_next_id;

static bool bug = true;
module_param(bug, bool, 0644);
MODULE_PARM_DESC(bug, "Free the last object of a run with its timer pending");

static unsigned long victim_used_after_free;
module_param_named(used_after_free, victim_used_after_free, ulong, 0444);
MODULE_PARM_DESC(used_after_free, "Timers that ran on a freed object so far");

static noinline __noclone void victim_obj_init(struct victim_obj *obj,
					       unsigned long id)
{
	obj->id = id;
	obj->freed = false;
}

static noinline __noclone void victim_obj_free(struct victim_obj *obj,
					       unsigned long id)
{
	WRITE_ONCE(obj->freed, true);
	list_add_tail(&obj->list, &victim_freed);
}

static noinline __noclone void victim_obj_use(struct victim_obj *obj,
					      unsigned long id)
{
	if (READ_ONCE(obj->freed))
		victim_used_after_free++;
}

static void victim_timer_fn(struct timer_list *t)
{
	struct victim_obj *obj = timer_container_of(obj, t, timer);

	victim_obj_use(obj, obj->id);
}

static int victim_run(unsigned int n)
{
	struct victim_obj **objs;
	unsigned int i;

	objs = kcalloc(n, sizeof(*objs), GFP_KERNEL);
	if (!objs)
		return -ENOMEM;
	guard(mutex)(&victim_lock);
	for (i = 0; i < n; i++) {
		objs[i] = kzalloc_obj(*objs[i]);
		if (!objs[i])
			break;
		victim_obj_init(objs[i], victim_next_id++);
		timer_setup(&objs[i]->timer, victim_timer_fn, 0);
		mod_timer(&objs[i]->timer, jiffies + 1 + i % 4);
	}
	n = i;
	for (i = 0; i < n; i++) {
		if (!bug || i + 1 < n)
			timer_delete_sync(&objs[i]->timer);
		victim_obj_free(objs[i], objs[i]->id);
	}
	kfree(objs);
	return n ? 0 : -ENOMEM;
}

static int victim_run_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	if (!n || n > VICTIM_MAX_RUN)
		return -EINVAL;
	return victim_run(n);
}

static const struct kernel_param_ops victim_run_ops = {
	.set	= victim_run_set,
};
module_param_cb(run, &victim_run_ops, NULL, 0200);
MODULE_PARM_DESC(run, "Make, arm and free this many objects (1-1000)");

static void __exit victim_exit(void)
{
	struct victim_obj *obj, *tmp;

	list_for_each_entry_safe(obj, tmp, &victim_freed, list) {
		timer_shutdown_sync(&obj->timer);
		kfree(obj);
	}
}

static int __init victim_init(void)
{
	return 0;
}

module_init(victim_init);
module_exit(victim_exit);

MODULE_DESCRIPTION("LKST sample: a timer that runs on a freed object");
MODULE_LICENSE("GPL");
