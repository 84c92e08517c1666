#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Exercise packaging/kdump/kdump-tools-dump outside a capture kernel: a
# copy with its fixed paths (/proc/vmcore, kdump-config, the defaults
# file, the init script, lkst, reboot, systemctl) pointed at fakes.
# shellcheck disable=SC2016 # the checks are eval'ed strings
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${1:-$here/../kdump/kdump-tools-dump}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
pass=0 fail=0
ok() { if eval "$2"; then pass=$((pass+1)); echo "ok   $1"; else fail=$((fail+1)); echo "FAIL $1 ($2)"; cat "$t/out"; fi; }

mkdir -p "$t/bin"
# fake kdump-config savecore: $SAVE = ok | fail | fail-nodir | purge-self
cat > "$t/bin/kdump-config" <<'F'
#!/bin/sh
[ "$1" = savecore ] || exit 9
. "$DEFAULTS"
stamp=$(date +%Y%m%d%H%M)
case $SAVE in
ok) mkdir -p "$KDUMP_COREDIR/$stamp"; echo dump > "$KDUMP_COREDIR/$stamp/dump.$stamp"; echo "savecore NAME=$NAME";;
fail) mkdir -p "$KDUMP_COREDIR/$stamp"; exit 1;;
fail-nodir) exit 1;;
esac
exit 0
F
cat > "$t/bin/lkst" <<'F'
#!/bin/sh
[ "$1" = extract ] || exit 2
[ -n "${LKST_SLEEP:-}" ] && sleep "$LKST_SLEEP"
mkdir -p "$4" && echo "extracted $2" > "$4/info" && echo "lkst: extracted into $4"
F
printf '#!/bin/sh\necho REBOOT "$@"\n' > "$t/bin/reboot"
printf '#!/bin/sh\necho INITD "$@"\n' > "$t/bin/initd"
printf '#!/bin/sh\necho failcmd "$@"\n' > "$t/bin/failcmd"
chmod +x "$t/bin"/*
sed -e "s|^PATH=.*|PATH=$t/bin:/bin:/usr/bin:/sbin:/usr/sbin|" \
    -e "s|^VMCORE_FILE=/proc/vmcore|VMCORE_FILE=$t/vmcore|" \
    -e "s|^KDUMP_SCRIPT=.*|KDUMP_SCRIPT=$t/bin/kdump-config|" \
    -e "s|^KDUMP_DEFAULTS=.*|KDUMP_DEFAULTS=$t/defaults|" \
    -e "s|^LKST=.*|LKST=$t/bin/lkst|" \
    -e "s|exec /etc/init.d/kdump-tools start|exec $t/bin/initd start|" \
    -e "s|-d /run/systemd/system|-d $t/nosystemd|" \
    "$src" > "$t/hook"
chmod +x "$t/hook"
export DEFAULTS=$t/defaults
run() { # defaults-text
	rm -rf "$t/crash"; mkdir -p "$t/crash"
	printf '%s\n' "$1" > "$t/defaults"
	sh "$t/hook" > "$t/out" 2>&1; echo "rc=$?" >> "$t/out"
}
echo core > "$t/vmcore"
D="USE_KDUMP=1
KDUMP_COREDIR=$t/crash"

# 1. a local save: its new directory, even with older dumps around
SAVE=ok; export SAVE
rm -rf "$t/crash"; mkdir -p "$t/crash/200001010000" "$t/crash/209912312359"
printf '%s\n' "$D" > "$t/defaults"
sh "$t/hook" > "$t/out" 2>&1; echo "rc=$?" >> "$t/out"
s=$(cd "$t/crash" && for d in 2*; do case $d in 200001010000|209912312359) ;; *) echo "$d";; esac; done)
ok "save ok: records in the new dump dir" '[ -f "$t/crash/$s/lkst/info" ] && [ -f "$t/crash/$s/lkst.log" ]'
ok "save ok: not in the newest-by-name older dir" '[ ! -e "$t/crash/209912312359/lkst" ]'
ok "save ok: reboot -f after" 'grep -q "REBOOT -f" "$t/out" && grep -q "^rc=0" "$t/out"'
ok "save ok: NAME exported as the init script does" 'grep -q "savecore NAME=kdump-tools" "$t/out"'
ok "save ok: Starting kdump-tools: printed" 'grep -q "^Starting kdump-tools: " "$t/out"'

# 2. save fails, KDUMP_FAIL_CMD set: extracted, then the fail command, no reboot
SAVE=fail run "$D
KDUMP_FAIL_CMD=\"failcmd a b\""
s=$(ls "$t/crash")
ok "save failed: records still extracted" '[ -f "$t/crash/$s/lkst/info" ]'
ok "save failed: KDUMP_FAIL_CMD run, words split" 'grep -q "^failcmd a b" "$t/out" && ! grep -q REBOOT "$t/out"'

# 3. save fails, no fail command: reboot as the init script does
SAVE=fail run "$D"
ok "save failed, no KDUMP_FAIL_CMD: reboot -f" 'grep -q "REBOOT -f" "$t/out"'

# 4. save failed before making a directory: lkst-<stamp>
SAVE=fail-nodir run "$D"
ok "no dump dir: lkst-STAMP" 'ls -d "$t"/crash/lkst-2*/lkst >/dev/null 2>&1'

# 5. a directory of this minute made before: reused, lkst.1 next to lkst
SAVE=ok; rm -rf "$t/crash"; s=$(date +%Y%m%d%H%M); mkdir -p "$t/crash/$s/lkst"
printf '%s\n' "$D" > "$t/defaults"; sh "$t/hook" > "$t/out" 2>&1
ok "same-minute dir: lkst.1" '[ -f "$t/crash/$s/lkst.1/info" ] && [ -f "$t/crash/$s/lkst.1.log" ]'

# 6. timeout
SAVE=ok LKST_SLEEP=5 LKST_EXTRACT_TIMEOUT=1 run "$D"
ok "timeout: reported, reboot still" 'grep -q "stopped after 1 s" "$t/out" && grep -q "REBOOT -f" "$t/out"'

# 7. USE_KDUMP=0 and unset: nothing
SAVE=ok run "USE_KDUMP=0
KDUMP_COREDIR=$t/crash"
ok "USE_KDUMP=0: exit 0, nothing" '[ -z "$(ls "$t/crash")" ] && ! grep -q REBOOT "$t/out" && grep -q "^rc=0" "$t/out"'
SAVE=ok run "KDUMP_COREDIR=$t/crash"
ok "USE_KDUMP unset: exit 0, nothing" '[ -z "$(ls "$t/crash")" ] && grep -q "^rc=0" "$t/out"'

# 8. no vmcore: the init script's start (kdump-config load)
: > "$t/vmcore"
SAVE=ok run "$D"
ok "empty vmcore: init script start" 'grep -q "^INITD start" "$t/out" && [ -z "$(ls "$t/crash")" ]'
rm -f "$t/vmcore"
SAVE=ok run "$D"
ok "no vmcore: init script start" 'grep -q "^INITD start" "$t/out"'
echo core > "$t/vmcore"

# 9. no lkst installed: kdump-tools' behaviour unchanged
sed -i "s|^LKST=.*|LKST=$t/bin/nolkst|" "$t/hook"
SAVE=ok run "$D"
ok "no lkst binary: save and reboot only" 'grep -q "REBOOT -f" "$t/out" && ! ls "$t"/crash/*/lkst* >/dev/null 2>&1'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
