package io.jdbcrepl.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a connect costs (issue 18): the first connect of a fresh JVM and later connects, through raw
 * pgjdbc, through {@code jdbc:repl:} without {@code repl.node} (pass-through) and with
 * {@code repl.node} to a node whose tables are installed; and the round trips of each connect,
 * counted by a forwarder between the client and the server (a round trip: the client speaks after
 * the server did).
 *
 * <p>Each round starts one child JVM per variant, in turn, with this class path; the child times
 * its first {@code DriverManager.getConnection} (driver classes loaded by it, as in an application
 * whose pool opens its first connection) and the median of the next 20. Creates the database
 * {@code repl_bench_<random>} and drops it. Server as {@link PassThroughBenchmark}'s. Settings:
 * bench.rounds (10), bench.childArgs (JVM flags of the children, default none).
 */
public final class ConnectBenchmark {

    private static final int LATER_CONNECTS = 20;

    private final String host = env("REPL_IT_PG_HOST", "127.0.0.1");
    private final int port = Integer.parseInt(env("REPL_IT_PG_PORT", "5432"));
    private final String user = env("REPL_IT_PG_USER", "postgres");
    private final String password = env("REPL_IT_PG_PASSWORD", "");
    private final String database = "repl_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    public static void main(String[] args) throws Exception {
        if (args.length == 1) {
            child(args[0]);
        } else {
            new ConnectBenchmark().run();
        }
    }

    private Map<String, String> variants(String hostPort) {
        String raw = "jdbc:postgresql://" + hostPort + "/" + database + "?user=" + user + "&password=" + password;
        Map<String, String> urls = new LinkedHashMap<>();
        urls.put("pgjdbc", raw);
        urls.put("jdbc:repl (pass-through)", "jdbc:repl:" + raw.substring("jdbc:".length()));
        urls.put("jdbc:repl repl.node", "jdbc:repl:" + raw.substring("jdbc:".length()) + "&repl.node=bench");
        return urls;
    }

    void run() throws Exception {
        int rounds = Integer.getInteger("bench.rounds", 10);
        try (Connection admin = DriverManager.getConnection(adminUrl()); Statement s = admin.createStatement()) {
            s.execute("CREATE DATABASE " + database);
        }
        try {
            Map<String, String> urls = variants(host + ":" + port);
            try (Connection node = DriverManager.getConnection(urls.get("jdbc:repl repl.node")); Statement s = node.createStatement()) {
                s.execute("CREATE TABLE item (id int PRIMARY KEY, name varchar(40))"); // the node's tables now exist
            }
            Map<String, List<double[]>> times = new LinkedHashMap<>();
            for (int r = 0; r < rounds; r++) {
                for (Map.Entry<String, String> v : urls.entrySet()) {
                    times.computeIfAbsent(v.getKey(), k -> new ArrayList<>()).add(inChildJvm(v.getValue()));
                }
            }
            System.out.printf(Locale.ROOT, "%n%d rounds, one fresh JVM per variant per round, interleaved; median (min..max) ms%n", rounds);
            System.out.printf(Locale.ROOT, "%-26s %-24s %-24s %s%n", "variant", "first connect", "later connect", "round trips (first, later)");
            try (RoundTripCounter counter = new RoundTripCounter(host, port)) {
                Map<String, String> counted = variants(InetAddress.getLoopbackAddress().getHostAddress() + ":" + counter.port());
                for (String name : urls.keySet()) {
                    int first = counter.count(counted.get(name));
                    int later = counter.count(counted.get(name));
                    System.out.printf(Locale.ROOT, "%-26s %-24s %-24s %d, %d%n", name, summary(times.get(name), 0),
                            summary(times.get(name), 1), first, later);
                }
            }
        } finally {
            try (Connection admin = DriverManager.getConnection(adminUrl()); Statement s = admin.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            }
        }
    }

    private String adminUrl() {
        return "jdbc:postgresql://" + host + ":" + port + "/postgres?user=" + user + "&password=" + password;
    }

    private static String summary(List<double[]> runs, int which) {
        double[] v = runs.stream().mapToDouble(r -> r[which]).sorted().toArray();
        return String.format(Locale.ROOT, "%.1f (%.1f..%.1f)", v[v.length / 2], v[0], v[v.length - 1]);
    }

    /** {first ms, median later ms} of a child JVM. */
    private static double[] inChildJvm(String url) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(System.getProperty("java.home") + "/bin/java"));
        String childArgs = System.getProperty("bench.childArgs", "").trim();
        if (!childArgs.isEmpty()) command.addAll(Arrays.asList(childArgs.split("\\s+")));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ConnectBenchmark.class.getName(), url));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String last = null;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("connect ")) last = line;
                else System.out.println("  child: " + line);
            }
        }
        if (p.waitFor() != 0 || last == null) throw new IllegalStateException("child JVM failed for " + url);
        String[] parts = last.split(" ");
        return new double[] {Double.parseDouble(parts[1]), Double.parseDouble(parts[2])};
    }

    private static void child(String url) throws SQLException {
        long start = System.nanoTime();
        DriverManager.getConnection(url).close();
        double first = (System.nanoTime() - start) / 1e6;
        double[] later = new double[LATER_CONNECTS];
        for (int i = 0; i < later.length; i++) {
            long t = System.nanoTime();
            DriverManager.getConnection(url).close();
            later[i] = (System.nanoTime() - t) / 1e6;
        }
        Arrays.sort(later);
        System.out.printf(Locale.ROOT, "connect %.3f %.3f%n", first, later[later.length / 2]);
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }

    /**
     * Forwards one connection at a time to the server and counts its round trips: each time the
     * client sends after the server last sent (the first send counts too).
     */
    private static final class RoundTripCounter implements AutoCloseable {
        private final String host;
        private final int targetPort;
        private final ServerSocket server;
        private final AtomicInteger turns = new AtomicInteger();
        private volatile boolean clientSpoke;

        RoundTripCounter(String host, int targetPort) throws IOException {
            this.host = host;
            this.targetPort = targetPort;
            this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        }

        int port() {
            return server.getLocalPort();
        }

        /** The round trips of one connect and close through {@code url}. */
        int count(String url) throws Exception {
            turns.set(0);
            clientSpoke = false;
            Thread accept = new Thread(this::forwardOne, "round-trip-counter");
            accept.start();
            DriverManager.getConnection(url).close();
            accept.join(5_000);
            return turns.get() - 1; // close (Terminate) is sent without a reply
        }

        private void forwardOne() {
            try (Socket client = server.accept(); Socket target = new Socket(host, targetPort)) {
                Thread back = new Thread(() -> pump(target, client, false), "round-trip-counter-back");
                back.start();
                pump(client, target, true);
                back.join(5_000);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }

        private void pump(Socket from, Socket to, boolean fromClient) {
            byte[] buffer = new byte[65536];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) > 0; ) {
                    if (fromClient && !clientSpoke) {
                        clientSpoke = true;
                        turns.incrementAndGet();
                    } else if (!fromClient) {
                        clientSpoke = false;
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // the other side closed
            } finally {
                try {
                    to.shutdownOutput();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
