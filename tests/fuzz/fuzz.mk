# tests/fuzz/fuzz.mk - the libFuzzer targets, built with clang whatever compiler
# configure chose. `make fuzz` in the build folder runs this with
#   top_srcdir, top_builddir   the source and build folders (absolute)
#   DEP_CFLAGS, DEP_LIBS       the libraries' flags configure found
# The library is compiled again here (with coverage and ASan + UBSan) into
# tests/fuzz/obj/; the targets land in tests/fuzz/ of the build folder.
CLANG ?= clang
O := $(top_builddir)/tests/fuzz
SRC := $(top_srcdir)/tests/fuzz

TARGETS := fuzz_result fuzz_import_cyclictest fuzz_import_rttests_json fuzz_import_rtla \
	fuzz_import_noise fuzz_proc_interrupts fuzz_proc_softirqs fuzz_proc_stat fuzz_sysinfo fuzz_units \
	fuzz_tracedec fuzz_analysis fuzz_task_stat

SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
WARN := -Wall -Wextra -Wshadow -Wformat=2 -Wstrict-prototypes -Wmissing-prototypes \
	-Wno-unused-parameter -Wno-format-nonliteral -Werror
CPPFLAGS_F := -include $(top_builddir)/config.h -I$(top_srcdir)/lib -I$(top_builddir) \
	-DRTM_SRCDIR='"$(top_srcdir)"'
CFLAGS_F := -g -O1 $(SAN) $(WARN) $(DEP_CFLAGS) -pthread

# the BPF programs (*.bpf.c) are built for the BPF target by make, never for the host
LIB_SRCS := $(filter-out %.bpf.c,$(wildcard $(top_srcdir)/lib/*/*.c))
LIB_OBJS := $(patsubst $(top_srcdir)/lib/%.c,$(O)/obj/%.o,$(LIB_SRCS))

all: $(addprefix $(O)/,$(TARGETS))

$(O)/obj/%.o: $(top_srcdir)/lib/%.c $(wildcard $(top_srcdir)/lib/*/*.h)
	@mkdir -p $(dir $@)
	$(CLANG) $(CPPFLAGS_F) $(CFLAGS_F) -fsanitize=fuzzer-no-link -c -o $@ $<

$(O)/obj/librtmfuzz.a: $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(O)/%: $(SRC)/%.c $(wildcard $(SRC)/*.h) $(O)/obj/librtmfuzz.a
	$(CLANG) $(CPPFLAGS_F) $(CFLAGS_F) -fsanitize=fuzzer -o $@ $< $(O)/obj/librtmfuzz.a \
		$(DEP_LIBS) -lm

clean:
	rm -rf $(O)/obj $(addprefix $(O)/,$(TARGETS))

.PHONY: all clean
