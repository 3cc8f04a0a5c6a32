package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.it.support.Vendor;
import io.jdbcrepl.metrics.ReplMeterBinder;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SPEC 8.5's metrics against what happened on two nodes, through Micrometer and through JMX: n1
 * and n2 update the same rows before either applies. On employees a MAXIMUM handler resolves the
 * conflict on each node; on accounts nothing does, so each node queues the other's transaction.
 * n1 also inserts a row nobody else touches. The lag is above zero while the appliers are off,
 * and back to zero once they caught up; the queue holds one entry on each node. Counters are read
 * as differences: they are this JVM's, and other tests name their nodes n1 and n2 too.
 */
class MetricsIT extends ClusterTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void countWhatHappened(List<Vendor> vendors) throws Exception {
        new ReplMeterBinder().bindTo(registry);
        new ReplMeterBinder().bindTo(prometheus);
        cluster = new Cluster(databases.nodes("metrics", vendors.toArray(Vendor[]::new)), Map.of("repl.apply", "false",
                "repl.handler.sal.table", "employees", "repl.handler.sal.type", "MAXIMUM",
                "repl.handler.sal.columns", "salary", "repl.handler.sal.resolution", "salary"));
        cluster.ddl(v -> List.of("CREATE TABLE employees (employee_id INT PRIMARY KEY, salary DECIMAL(10,2))",
                "CREATE TABLE accounts (account_id INT PRIMARY KEY, owner VARCHAR(40))",
                "INSERT INTO employees VALUES (1, 4400)", "INSERT INTO accounts VALUES (1, 'ann')"));
        cluster.admin(0);
        cluster.admin(1);
        double statements = counter("jdbc.repl.capture.statements", "n1");
        double lcrs = counter("jdbc.repl.capture.lcrs", "n1");
        double captureCount = registry.get("jdbc.repl.capture.time").tag("node", "n1").functionTimer().count();
        double appliedAtN2 = applied("n2", "n1", "applied");
        double queuedAtN2 = applied("n2", "n1", "queued");
        double appliedAtN1 = applied("n1", "n2", "applied");
        double resolvedAtN2 = conflicts("n2", "n1", "sal", "DESTINATION_KEPT");
        double resolvedAtN1 = conflicts("n1", "n2", "sal", "LCR_APPLIED");
        FunctionTimer delay = registry.get("jdbc.repl.apply.delay").tags("node", "n2", "peer", "n1").functionTimer();
        double delayed = delay.count();
        double delayMillis = delay.totalTime(TimeUnit.MILLISECONDS);

        cluster.execute(0, "UPDATE employees SET salary = 4900 WHERE employee_id = 1");
        cluster.execute(0, "UPDATE accounts SET owner = 'bob' WHERE account_id = 1");
        cluster.execute(0, "INSERT INTO employees VALUES (2, 3000), (3, 3100)");
        cluster.execute(1, "UPDATE employees SET salary = 5000 WHERE employee_id = 1");
        cluster.execute(1, "UPDATE accounts SET owner = 'cy' WHERE account_id = 1");

        assertThat(counter("jdbc.repl.capture.statements", "n1") - statements).isEqualTo(3);
        assertThat(counter("jdbc.repl.capture.lcrs", "n1") - lcrs).isEqualTo(4);
        FunctionTimer captureTime = registry.get("jdbc.repl.capture.time").tag("node", "n1").functionTimer();
        assertThat(captureTime.count() - captureCount).isEqualTo(3);
        assertThat(captureTime.totalTime(TimeUnit.NANOSECONDS)).isPositive();

        // nothing applied yet: n1's three transactions wait, for a second at least
        Thread.sleep(1_100);
        assertThat(eventually(() -> gauge("jdbc.repl.lag.transactions", "n2", "n1"), v -> v == 3)).isEqualTo(3);
        assertThat(gauge("jdbc.repl.lag", "n2", "n1")).isGreaterThanOrEqualTo(1);
        assertThat(state("n2", "n1", "RUNNING")).isZero();

        cluster.admin(0).startApply();
        cluster.admin(1).startApply();
        cluster.waitForAll();

        assertThat(applied("n2", "n1", "applied") - appliedAtN2).isEqualTo(2);
        assertThat(applied("n2", "n1", "queued") - queuedAtN2).isEqualTo(1);
        assertThat(applied("n1", "n2", "applied") - appliedAtN1).isEqualTo(1);
        assertThat(conflicts("n2", "n1", "sal", "DESTINATION_KEPT") - resolvedAtN2).isEqualTo(1);
        assertThat(conflicts("n1", "n2", "sal", "LCR_APPLIED") - resolvedAtN1).isEqualTo(1);
        FunctionTimer batches = registry.get("jdbc.repl.apply.batch").tags("node", "n2", "peer", "n1").functionTimer();
        assertThat(batches.count()).isPositive();
        // n1's three transactions, each captured over a second before the applier started
        assertThat(delay.count() - delayed).isEqualTo(3);
        assertThat((delay.totalTime(TimeUnit.MILLISECONDS) - delayMillis) / 3).isGreaterThanOrEqualTo(1_000);

        assertThat(eventually(() -> gauge("jdbc.repl.lag.transactions", "n2", "n1"), v -> v == 0)).isZero();
        assertThat(gauge("jdbc.repl.lag", "n2", "n1")).isZero();
        assertThat(gauge("jdbc.repl.error.queue", "n2", "n1")).isEqualTo(1);
        assertThat(gauge("jdbc.repl.error.queue", "n1", "n2")).isEqualTo(1);
        assertThat(state("n2", "n1", "RUNNING")).isEqualTo(1);

        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        ObjectName peer = new ObjectName("jdbc.repl:type=Peer,node=n2,peer=n1");
        assertThat(jmx.getAttribute(peer, "State")).isEqualTo("RUNNING");
        assertThat(jmx.getAttribute(peer, "ErrorQueueDepth")).isEqualTo(1L);
        assertThat(jmx.getAttribute(peer, "LagTransactions")).isEqualTo(0L);
        assertThat((long) jmx.getAttribute(peer, "AppliedTransactions")).isEqualTo((long) applied("n2", "n1", "applied"));
        assertThat((long) jmx.getAttribute(new ObjectName("jdbc.repl:type=Node,node=n1"), "CapturedLcrs"))
                .isEqualTo((long) counter("jdbc.repl.capture.lcrs", "n1"));

        // every series the Grafana dashboard in docs/ reads is in a Prometheus scrape
        String scrape = prometheus.scrape();
        Matcher names = Pattern.compile("jdbc_repl_\\w+").matcher(Files.readString(Path.of("../docs/grafana-dashboard.json")));
        Set<String> read = new TreeSet<>();
        while (names.find()) read.add(names.group());
        assertThat(read).hasSizeGreaterThan(10).allSatisfy(name -> assertThat(scrape).as(name).containsPattern(
                "(?m)^" + name + "\\{[^}]*node=\"n2\""));

        cluster.admin(1).stopApply();
        assertThat(eventually(() -> state("n2", "n1", "RUNNING"), v -> v == 0)).isZero();
    }

    private double counter(String name, String node) {
        FunctionCounter c = registry.find(name).tag("node", node).functionCounter();
        return c == null ? 0 : c.count();
    }

    private double applied(String node, String peer, String outcome) {
        return registry.get("jdbc.repl.apply.transactions").tags("node", node, "peer", peer, "outcome", outcome)
                .functionCounter().count();
    }

    private double conflicts(String node, String peer, String handler, String outcome) {
        return registry.find("jdbc.repl.conflicts").tags("node", node, "peer", peer, "handler", handler, "outcome", outcome,
                "kind", "UPDATE").functionCounters().stream()
                .filter(c -> c.getId().getTag("table").endsWith(".employees")).mapToDouble(FunctionCounter::count).sum();
    }

    private double gauge(String name, String node, String peer) {
        Gauge g = registry.find(name).tags("node", node, "peer", peer).gauge();
        if (g != null) return g.value();
        return registry.get(name).tags("node", node, "peer", peer).timeGauge().value(TimeUnit.SECONDS);
    }

    private double state(String node, String peer, String state) {
        return registry.get("jdbc.repl.applier.state").tags("node", node, "peer", peer, "state", state).gauge().value();
    }

    /** The value once it satisfies {@code done}, polling for up to 15 s (the status is read at most once a second). */
    private static double eventually(DoubleSupplier value, java.util.function.DoublePredicate done) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        double v = value.getAsDouble();
        while (!done.test(v) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            v = value.getAsDouble();
        }
        return v;
    }
}
