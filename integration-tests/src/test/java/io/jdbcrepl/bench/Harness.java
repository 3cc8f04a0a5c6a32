package io.jdbcrepl.bench;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs two or more named variants of one workload side by side and compares their throughput.
 *
 * <p>The machines here are shared and noisy, so absolute numbers mean little; what this gives is a
 * ratio measured under the same noise. Every variant runs in every round, one after the other,
 * the order alternating from round to round (A B, B A, A B, …) so a slow drift favours no one.
 * Each run of a variant lasts a fixed time with a fixed number of client threads; the figure is
 * operations per second, and beside it the client threads' CPU time per operation (what the
 * driver itself costs, much less disturbed by other processes than throughput is).
 *
 * <p>Each round ends with a mixed run: every client thread alternates the variants operation by
 * operation and times each one, so both see exactly the same moments of the machine. Its ratio
 * (mean latency of the baseline over that of the variant, comparable to a throughput ratio) is
 * the figure least moved by bursts of other work; on a quiet machine it agrees with the others.
 *
 * <p>Per variant the report gives the median and the min–max over the rounds, and against the
 * first variant (the baseline) the ratio of the medians and the per-round ratios.
 */
final class Harness {

    /** One unit of work; called concurrently from every client thread. */
    @FunctionalInterface
    interface Operation {
        void run() throws Exception;
    }

    record Variant(String name, Operation operation) {}

    record Settings(int threads, Duration warmup, Duration round, int rounds) {
        Settings {
            if (threads < 1 || rounds < 1) {
                throw new IllegalArgumentException("threads and rounds must be at least 1");
            }
        }
    }

    /**
     * Per variant (in the order given) and round: operations per second, client CPU microseconds
     * per operation, bytes the client threads allocated per operation (exact, whatever the noise)
     * and, from the mixed run, mean latency in microseconds; per round the 1-minute
     * load average at its end (to spot rounds that other work on the machine disturbed).
     */
    record Result(String workload, Settings settings, List<String> variants, double[][] opsPerSecond,
                  double[][] cpuMicrosPerOp, double[][] bytesPerOp, double[][] mixedLatencyMicros,
                  double[] loadAverage) {

        double median(int variant) {
            return Harness.median(opsPerSecond[variant]);
        }

        double medianCpu(int variant) {
            return Harness.median(cpuMicrosPerOp[variant]);
        }

        double medianBytes(int variant) {
            return Harness.median(bytesPerOp[variant]);
        }

        /** The headline figure: median throughput of {@code variant} over that of the baseline. */
        double ratioOfMedians(int variant) {
            return median(variant) / median(0);
        }

        /** Variant over baseline throughput within each round. */
        double[] roundRatios(int variant) {
            double[] ratios = new double[settings.rounds()];
            for (int r = 0; r < ratios.length; r++) {
                ratios[r] = opsPerSecond[variant][r] / opsPerSecond[0][r];
            }
            return ratios;
        }

        /** Baseline over variant mean latency in each round's mixed run (above 1: the variant is faster). */
        double[] mixedRatios(int variant) {
            double[] ratios = new double[settings.rounds()];
            for (int r = 0; r < ratios.length; r++) {
                ratios[r] = mixedLatencyMicros[0][r] / mixedLatencyMicros[variant][r];
            }
            return ratios;
        }
    }

    /** HotSpot's thread bean also counts the bytes each thread allocates. */
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private Harness() {}

    static Result run(String workload, Settings settings, List<Variant> variants, PrintStream log) throws Exception {
        if (variants.size() < 2) {
            throw new IllegalArgumentException("a comparison needs two variants at least");
        }
        int n = variants.size();
        ExecutorService clients = Executors.newFixedThreadPool(settings.threads(), runnable -> {
            Thread thread = new Thread(runnable, "bench-client");
            thread.setDaemon(true);
            return thread;
        });
        try {
            log.printf(Locale.ROOT, "%n%s, %d threads: warm-up %d s per variant%n",
                    workload, settings.threads(), settings.warmup().toSeconds());
            for (Variant variant : variants) {
                measure(variant, settings.threads(), settings.warmup(), clients);
            }
            double[][] opsPerSecond = new double[n][settings.rounds()];
            double[][] cpuMicrosPerOp = new double[n][settings.rounds()];
            double[][] bytesPerOp = new double[n][settings.rounds()];
            double[][] mixedLatency = new double[n][settings.rounds()];
            double[] loadAverage = new double[settings.rounds()];
            for (int round = 0; round < settings.rounds(); round++) {
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  round %d:", round + 1));
                for (int i = 0; i < n; i++) {
                    int v = round % 2 == 0 ? i : n - 1 - i;
                    Measurement m = measure(variants.get(v), settings.threads(), settings.round(), clients);
                    opsPerSecond[v][round] = m.opsPerSecond();
                    cpuMicrosPerOp[v][round] = m.cpuMicrosPerOp();
                    bytesPerOp[v][round] = m.bytesPerOp();
                    line.append(String.format(Locale.ROOT, "  %s %.0f/s %.1f us cpu/op",
                            variants.get(v).name(), m.opsPerSecond(), m.cpuMicrosPerOp()));
                }
                double[] latency = measureMixed(variants, settings.threads(), settings.round(), clients);
                line.append("  mixed");
                for (int v = 0; v < n; v++) {
                    mixedLatency[v][round] = latency[v];
                    line.append(String.format(Locale.ROOT, " %.1f", latency[v]));
                }
                loadAverage[round] = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
                log.println(line.append(String.format(Locale.ROOT, " us/op  (load %.1f)", loadAverage[round])));
            }
            List<String> names = variants.stream().map(Variant::name).toList();
            return new Result(workload, settings, names, opsPerSecond, cpuMicrosPerOp, bytesPerOp, mixedLatency,
                    loadAverage);
        } finally {
            clients.shutdownNow();
            clients.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    private record Measurement(double opsPerSecond, double cpuMicrosPerOp, double bytesPerOp) {}

    /** Runs one variant on every client thread for {@code duration}. */
    private static Measurement measure(Variant variant, int threads, Duration duration, ExecutorService clients)
            throws Exception {
        long[] deadline = new long[1];
        List<long[]> perThread = onEveryThread(threads, clients, deadline, duration, () -> {
            long cpuStart = THREADS.getCurrentThreadCpuTime();
            long bytesStart = THREADS.getCurrentThreadAllocatedBytes();
            long operations = 0;
            while (System.nanoTime() - deadline[0] < 0) {
                variant.operation().run();
                operations++;
            }
            return new long[] {operations, THREADS.getCurrentThreadCpuTime() - cpuStart,
                    THREADS.getCurrentThreadAllocatedBytes() - bytesStart};
        });
        // The last operation of each thread may end a little after the deadline: count its time.
        double seconds = (System.nanoTime() - (deadline[0] - duration.toNanos())) / 1e9;
        long operations = 0;
        long cpuNanos = 0;
        long bytes = 0;
        for (long[] totals : perThread) {
            operations += totals[0];
            cpuNanos += totals[1];
            bytes += totals[2];
        }
        long count = Math.max(1, operations);
        return new Measurement(operations / seconds, cpuNanos / 1e3 / count, (double) bytes / count);
    }

    /**
     * Runs all variants on every client thread for {@code duration}, each thread alternating them
     * operation by operation (starting with a different one on each thread); returns each
     * variant's mean latency in microseconds.
     */
    private static double[] measureMixed(List<Variant> variants, int threads, Duration duration,
                                         ExecutorService clients) throws Exception {
        int n = variants.size();
        long[] deadline = new long[1];
        int[] nextThread = {0};
        List<long[]> perThread = onEveryThread(threads, clients, deadline, duration, () -> {
            int first;
            synchronized (nextThread) {
                first = nextThread[0]++;
            }
            long[] totals = new long[2 * n]; // nanoseconds, then count, per variant
            for (long i = first; System.nanoTime() - deadline[0] < 0; i++) {
                int v = (int) (i % n);
                long begin = System.nanoTime();
                variants.get(v).operation().run();
                totals[v] += System.nanoTime() - begin;
                totals[n + v]++;
            }
            return totals;
        });
        double[] latency = new double[n];
        for (int v = 0; v < n; v++) {
            long nanos = 0;
            long count = 0;
            for (long[] totals : perThread) {
                nanos += totals[v];
                count += totals[n + v];
            }
            latency[v] = nanos / 1e3 / Math.max(1, count);
        }
        return latency;
    }

    /**
     * Starts {@code work} on {@code threads} client threads at once, with {@code deadline[0]} set
     * to now + duration just before they start; returns what each returned. An operation's
     * exception ends the benchmark here.
     */
    private static List<long[]> onEveryThread(int threads, ExecutorService clients, long[] deadline,
                                              Duration duration, Callable<long[]> work) throws Exception {
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<long[]>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            futures.add(clients.submit(() -> {
                ready.countDown();
                start.await();
                return work.call();
            }));
        }
        ready.await();
        deadline[0] = System.nanoTime() + duration.toNanos(); // published to the clients by countDown()
        start.countDown();
        List<long[]> results = new ArrayList<>();
        for (Future<long[]> future : futures) {
            results.add(future.get());
        }
        return results;
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    static double min(double[] values) {
        return Arrays.stream(values).min().orElseThrow();
    }

    static double max(double[] values) {
        return Arrays.stream(values).max().orElseThrow();
    }

    /**
     * The result as a table: one row per round (throughput, its ratio to the baseline, the mixed
     * run's ratio, client CPU per operation, load average), then the median and min-max of each.
     */
    static void print(Result result, PrintStream out) {
        Settings s = result.settings();
        List<String> names = result.variants();
        int n = names.size();
        out.printf(Locale.ROOT, "%n%s, %d client threads, %d rounds of %d s per run after %d s warm-up%n",
                result.workload(), s.threads(), s.rounds(), s.round().toSeconds(), s.warmup().toSeconds());
        List<String> header = new ArrayList<>();
        List<double[]> columns = new ArrayList<>();
        List<String> formats = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            header.add(names.get(v) + " ops/s");
            columns.add(result.opsPerSecond()[v]);
            formats.add("%.0f");
        }
        for (int v = 1; v < n; v++) {
            String suffix = n > 2 ? " " + names.get(v) : "";
            header.add("ratio" + suffix);
            columns.add(result.roundRatios(v));
            formats.add("%.3f");
            header.add("mixed ratio" + suffix);
            columns.add(result.mixedRatios(v));
            formats.add("%.3f");
        }
        for (int v = 0; v < n; v++) {
            header.add(names.get(v) + " us cpu/op");
            columns.add(result.cpuMicrosPerOp()[v]);
            formats.add("%.1f");
        }
        for (int v = 0; v < n; v++) {
            header.add(names.get(v) + " B/op");
            columns.add(result.bytesPerOp()[v]);
            formats.add("%.0f");
        }
        header.add("load");
        columns.add(result.loadAverage());
        formats.add("%.1f");

        int[] widths = new int[columns.size()];
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-8s", "round"));
        for (int c = 0; c < columns.size(); c++) {
            widths[c] = Math.max(header.get(c).length(), 11) + 2;
            line.append(String.format(Locale.ROOT, "%" + widths[c] + "s", header.get(c)));
        }
        out.println(line);
        for (int r = 0; r < s.rounds(); r++) {
            line = new StringBuilder(String.format(Locale.ROOT, "%-8d", r + 1));
            for (int c = 0; c < columns.size(); c++) {
                line.append(cell(widths[c], formats.get(c), columns.get(c)[r]));
            }
            out.println(line);
        }
        StringBuilder medians = new StringBuilder(String.format(Locale.ROOT, "%-8s", "median"));
        StringBuilder ranges = new StringBuilder(String.format(Locale.ROOT, "%-8s", "min-max"));
        for (int c = 0; c < columns.size(); c++) {
            double[] column = columns.get(c);
            String format = formats.get(c);
            medians.append(cell(widths[c], format, median(column)));
            ranges.append(String.format(Locale.ROOT, "%" + widths[c] + "s",
                    String.format(Locale.ROOT, format + "-" + format, min(column), max(column))));
        }
        out.println(medians);
        out.println(ranges);
        for (int v = 1; v < n; v++) {
            out.printf(Locale.ROOT, "%s / %s: ratio of medians %.3f, mixed ratio median %.3f,"
                            + " client CPU per operation %+.1f us (%+.1f%%), allocation %+.0f B/op%n",
                    names.get(v), names.get(0), result.ratioOfMedians(v), median(result.mixedRatios(v)),
                    result.medianCpu(v) - result.medianCpu(0),
                    100 * (result.medianCpu(v) / result.medianCpu(0) - 1),
                    result.medianBytes(v) - result.medianBytes(0));
        }
    }

    private static String cell(int width, String format, double value) {
        return String.format(Locale.ROOT, "%" + width + "s", String.format(Locale.ROOT, format, value));
    }
}
