package io.jdbcrepl.metrics;

import io.jdbcrepl.logging.DriverLog;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The metrics of every node in this JVM, by node name, and who shows them: JMX always, Micrometer's
 * global registry when Micrometer is on the class path, and any registry bound with
 * {@link ReplMeterBinder}. Meters appear as nodes, peers and kinds of conflict first show up.
 */
public final class ReplMetrics {

    private static final DriverLog LOG = DriverLog.of(ReplMetrics.class);
    private static final Map<String, NodeMetrics> NODES = new ConcurrentHashMap<>();
    private static final List<Observer> OBSERVERS = new ArrayList<>(); // guarded by ReplMetrics.class
    private static boolean started; // guarded by ReplMetrics.class
    /** {@code -Dio.jdbcrepl.metrics=false}: nothing counted (the meters stay, at their values); for measuring their cost. */
    private static volatile boolean counting = !"false".equalsIgnoreCase(System.getProperty("io.jdbcrepl.metrics"));

    /**
     * Where meters are registered: one thread, in order, gone after a second without work (not one of
     * a node's threads, which end with the node). JMX's platform MBean server takes a tenth of a
     * second or more to start in a JVM that has not used it, and Micrometer's classes to load: a
     * first connection does not wait for either.
     */
    static final java.util.concurrent.Executor BACKGROUND = new java.util.concurrent.ThreadPoolExecutor(0, 1, 1,
            java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "jdbc:repl metrics registration");
                t.setDaemon(true);
                return t;
            });

    private ReplMetrics() {
    }

    /** Who shows the metrics: told of every node, peer and conflict counter, the existing ones first. */
    interface Observer {
        void node(NodeMetrics node);

        void peer(PeerMetrics peer);

        void conflict(PeerMetrics peer, ConflictKey key, LongAdder count);
    }

    /** Whether capture and apply count what they do (true unless turned off). */
    public static boolean counting() {
        return counting;
    }

    /** Turns counting on or off in this JVM (the benchmarks compare both in one run). */
    public static void counting(boolean on) {
        counting = on;
    }

    /** The metrics of the node named {@code node}, made at first use. */
    public static NodeMetrics node(String node) {
        NodeMetrics m = NODES.get(node);
        if (m != null) return m;
        synchronized (ReplMetrics.class) {
            m = NODES.get(node);
            if (m != null) return m;
            startObservers();
            m = new NodeMetrics(node);
            NODES.put(node, m);
            for (Observer o : OBSERVERS) o.node(m);
            return m;
        }
    }

    /** The metrics of the nodes this JVM has seen. */
    public static List<NodeMetrics> nodes() {
        return List.copyOf(NODES.values());
    }

    static synchronized void peerAdded(PeerMetrics peer) {
        for (Observer o : OBSERVERS) o.peer(peer);
    }

    static synchronized void conflictAdded(PeerMetrics peer, ConflictKey key, LongAdder count) {
        for (Observer o : OBSERVERS) o.conflict(peer, key, count);
    }

    /** Adds an observer and tells it of every node, peer and conflict counter there is. */
    static synchronized void observe(Observer observer) {
        OBSERVERS.add(observer);
        for (NodeMetrics n : NODES.values()) {
            observer.node(n);
            for (PeerMetrics p : n.peers()) {
                observer.peer(p);
                p.conflictCounters().forEach((k, v) -> observer.conflict(p, k, v));
            }
        }
    }

    /** JMX, and Micrometer's global registry where Micrometer is there: once, with the first node. */
    private static void startObservers() {
        if (started) return;
        started = true;
        observe(new JmxMetrics());
        if (micrometerPresent()) {
            BACKGROUND.execute(() -> {
                try {
                    ReplMeterBinder.bindGlobal();
                } catch (LinkageError e) {
                    LOG.debug("jdbc:repl: Micrometer is on the class path but could not be used: " + e);
                }
            });
        }
    }

    private static boolean micrometerPresent() {
        try {
            Class.forName("io.micrometer.core.instrument.Metrics", false, ReplMetrics.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError absent) {
            return false;
        }
    }
}
