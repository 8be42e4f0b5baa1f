#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""
gen-layouts.py - write the /proc/interrupts layouts no public capture was found for.

The text is printed the way the kernel prints it (see README.md for the functions
followed); the counts come from a fixed pseudo-random sequence, so running this
again gives the same files byte for byte. Run from tests/data/irq:

    python3 gen-layouts.py
"""
import os

SOFTIRQS = ["HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
            "HRTIMER", "RCU"]


class Lcg:
    """Numerical Recipes LCG: deterministic, no dependency on Python's random."""

    def __init__(self, seed):
        self.x = seed

    def next(self, mod):
        self.x = (self.x * 1664525 + 1013904223) % (1 << 32)
        return self.x % mod if mod else 0


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def header(prec, cpus):
    # seq_printf(p, "%*s", prec + 8, ""); for_each_online_cpu: "CPU%-8d"
    return " " * (prec + 8) + "".join("CPU%-8d" % c for c in cpus) + "\n"


def numbered(prec, irq, counts, chip, hwirq, level, name, actions):
    # kernel/irq/proc.c show_interrupts() (v6.x)
    s = "%*d:" % (prec, irq)
    s += "".join(" %10u" % c for c in counts)          # seq_put_decimal_ull_width(" ", cnt, 10)
    s += " " + "%8s" % chip
    s += " %*s" % (prec, "" if hwirq is None else str(hwirq))
    if level is not None:                                # CONFIG_GENERIC_IRQ_SHOW_LEVEL
        s += " %-8s" % level
    if name:
        s += "-%-8s" % name
    if actions:
        s += "  " + ", ".join(actions)
    return s + "\n"


def x86_named(prec, tag, counts, text):
    # arch/x86/kernel/irq.c arch_show_interrupts(): "%*s: " then "%10u " per CPU
    return "%*s: " % (prec, tag) + "".join("%10u " % c for c in counts) + "  " + text + "\n"


def x86_single(prec, tag, value):
    return "%*s: %10u\n" % (prec, tag, value)


def softirqs(possible, rows):
    # fs/proc/softirqs.c show_softirqs(): every possible CPU
    s = " " * 20 + "".join("CPU%-8d" % c for c in possible) + "\n"
    for name, counts in rows:
        s += "%12s:" % name + "".join(" %10u" % c for c in counts) + "\n"
    return s


# ------------------------------------------------------------ x86, 256 CPUs
def x86_256():
    rnd = Lcg(256)
    cpus = list(range(256))
    prec = 4                   # nr_irqs >= 1000 with 256 CPUs
    out = header(prec, cpus)
    legacy = [(0, 2, "edge", ["timer"]), (8, 8, "edge", ["rtc0"]), (9, 9, "fasteoi", ["acpi"]),
              (16, 16, "fasteoi", ["i801_smbus"])]
    for irq, hw, trig, act in legacy:
        c = [0] * 256
        c[rnd.next(256)] = rnd.next(500)
        out += numbered(prec, irq, c, "IR-IO-APIC", hw, None, trig, act)
    out += numbered(prec, 24, [0] * 256, "DMAR-MSI", 0, None, "edge", ["dmar0"])
    # 48 NVMe and 48 NIC queues, each bound to one CPU (managed IRQs)
    for q in range(48):
        c = [0] * 256
        c[q * 5] = 1000000 + rnd.next(9000000)
        out += numbered(prec, 100 + q, c, "IR-PCI-MSIX-0000:41:00.0", q, None, "edge",
                        ["nvme0q%d" % (q + 1)])
    for q in range(48):
        c = [0] * 256
        c[q * 5 + 2] = rnd.next(4000000000)
        out += numbered(prec, 1000 + q, c, "IR-PCI-MSIX-0000:c1:00.0", q, None, "edge",
                        ["mlx5_comp%d@pci:0000:c1:00.0" % q])
    loc = [200000000 + rnd.next(100000000) for _ in cpus]
    loc[0] = 4294967295        # a per-CPU counter at the top of its 32 bits
    rows = [("NMI", "Non-maskable interrupts", [rnd.next(3000) for _ in cpus]),
            ("LOC", "Local timer interrupts", loc),
            ("SPU", "Spurious interrupts", [0] * 256),
            ("PMI", "Performance monitoring interrupts", [rnd.next(3000) for _ in cpus]),
            ("IWI", "IRQ work interrupts", [rnd.next(100000) for _ in cpus]),
            ("RTR", "APIC ICR read retries", [0] * 256),
            ("RES", "Rescheduling interrupts", [rnd.next(5000000) for _ in cpus]),
            ("CAL", "Function call interrupts", [rnd.next(5000000) for _ in cpus]),
            ("TLB", "TLB shootdowns", [rnd.next(2000000) for _ in cpus]),
            ("TRM", "Thermal event interrupts", [0] * 256),
            ("THR", "Threshold APIC interrupts", [0] * 256),
            ("DFR", "Deferred Error APIC interrupts", [0] * 256),
            ("MCE", "Machine check exceptions", [0] * 256),
            ("MCP", "Machine check polls", [1234] * 256)]
    for tag, text, c in rows:
        out += x86_named(prec, tag, c, text)
    out += x86_single(prec, "ERR", 3)
    out += x86_single(prec, "MIS", 0)
    for tag, text in (("PIN", "Posted-interrupt notification event"),
                      ("NPI", "Nested posted-interrupt event"),
                      ("PIW", "Posted-interrupt wakeup event")):
        out += x86_named(prec, tag, [0] * 256, text)
    write("x86-256cpu/proc/interrupts", out)
    write("x86-256cpu/proc/softirqs",
          softirqs(cpus, [(n, [rnd.next(10000000) for _ in cpus]) for n in SOFTIRQS]))


# ------------------------------------------------------------ arm64, GICv3 + ITS, 4 CPUs
ARM64_IPIS = ["Rescheduling interrupts", "Function call interrupts", "CPU stop interrupts",
              "CPU stop NMIs", "Timer broadcast interrupts", "IRQ work interrupts",
              "CPU backtrace interrupts", "KGDB roundup interrupts"]


def arm64_gicv3():
    rnd = Lcg(3)
    cpus = [0, 1, 2, 3]
    prec = 3
    out = header(prec, cpus)
    out += numbered(prec, 10, [rnd.next(9000000) for _ in cpus], "GICv3", 27, "Level", None,
                    ["arch_timer"])
    out += numbered(prec, 12, [rnd.next(5000), 0, 0, 0], "GICv3", 33, "Level", None,
                    ["uart-pl011"])
    out += numbered(prec, 13, [0, 0, 0, 0], "GICv3", 23, "Level", None, ["arm-pmu"])
    out += numbered(prec, 14, [0, 0, 0, 0], "9030000.pl061", 3, "Edge", None, ["ACPI:Event"])
    for i, act in enumerate(["virtio0-config", "virtio0-input.0", "virtio0-output.0"]):
        c = [0] * 4
        c[i % 4] = rnd.next(200000)
        out += numbered(prec, 15 + i, c, "ITS-MSI", 16384 + i, "Edge", None, [act])
    out += numbered(prec, 18, [1, 0, 0, 0], "ITS-MSI", 32768, "Edge", None,
                    ["aerdrv", "PCIe PME", "pciehp"])
    for i in range(4):
        c = [0] * 4
        c[i] = rnd.next(900000)
        out += numbered(prec, 19 + i, c, "ITS-MSI", 524289 + i, "Edge", None,
                        ["nvme0q%d" % (i + 1)])
    # arch/arm64/kernel/smp.c arch_show_interrupts()
    for i, text in enumerate(ARM64_IPIS):
        c = [rnd.next(400000) for _ in cpus] if i in (0, 1, 5) else [0] * 4
        out += "%*s%u:%s" % (prec - 1, "IPI", i, " " if prec >= 4 else "")
        out += "".join("%10u " % v for v in c) + "      " + text + "\n"
    out += "%*s: %10u\n" % (prec, "Err", 0)
    write("arm64-gicv3/proc/interrupts", out)
    soft = [(n, [rnd.next(800000) if n in ("TIMER", "NET_RX", "SCHED", "RCU") else 0
                 for _ in cpus]) for n in SOFTIRQS]
    write("arm64-gicv3/proc/softirqs", softirqs(cpus, soft))


# ------------------------------------------------------------ x86 with CPU 2 offline
def x86_offline():
    """sysroot-rt-isolated (6.1) as that kernel prints it after 'echo 0 > cpu2/online'."""
    src = "../sysroot-rt-isolated/proc/"
    keep = [0, 1, 3]
    with open(src + "interrupts") as f:
        lines = f.read().splitlines()
    # v6.1 prints "%*d: " / "%*s: ", then "%10u " for each online CPU, then the rest
    out = header(3, keep)
    for line in lines[1:]:
        if len(line) < 5 + 4 * 11:
            out += line + "\n"                          # ERR:, MIS: (one number)
            continue
        cols = [line[5 + 11 * i:5 + 11 * (i + 1)] for i in range(4)]
        out += line[:5] + "".join(cols[c] for c in keep) + line[5 + 44:] + "\n"
    write("x86-offline/proc/interrupts", out)
    with open(src + "softirqs") as f:
        write("x86-offline/proc/softirqs", f.read())    # possible CPUs: unchanged
    with open(src + "stat") as f:
        write("x86-offline/proc/stat",
              "".join(l for l in f.readlines() if not l.startswith("cpu2 ")))


if __name__ == "__main__":
    x86_256()
    arm64_gicv3()
    x86_offline()
