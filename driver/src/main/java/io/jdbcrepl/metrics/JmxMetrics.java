package io.jdbcrepl.metrics;

import io.jdbcrepl.api.PeerStatus;
import io.jdbcrepl.logging.DriverLog;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToLongFunction;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers an MXBean per node and per (node, peer) in the platform MBean server, domain
 * {@code jdbc.repl}, in the background: the platform MBean server takes a tenth of a second or
 * more to start in a JVM that has not used it, which a first connection should not wait for.
 */
final class JmxMetrics implements ReplMetrics.Observer {

    private static final DriverLog LOG = DriverLog.of(JmxMetrics.class);
    static final String DOMAIN = "jdbc.repl";

    @Override
    public void node(NodeMetrics node) {
        register("type=Node,node=" + value(node.node()), new NodeBean(node));
    }

    @Override
    public void peer(PeerMetrics peer) {
        register("type=Peer,node=" + value(peer.node().node()) + ",peer=" + value(peer.peer()), new PeerBean(peer));
    }

    @Override
    public void conflict(PeerMetrics peer, ConflictKey key, LongAdder count) {
        // the peer's bean reads its conflict counters as they are
    }

    static ObjectName name(String properties) throws JMException {
        return new ObjectName(DOMAIN + ":" + properties);
    }

    /** A node or peer name as an ObjectName value: quoted when it holds a character with a meaning there. */
    private static String value(String name) {
        return name.matches("[A-Za-z0-9_.\\-]+") ? name : ObjectName.quote(name);
    }

    private static void register(String properties, Object bean) {
        ReplMetrics.BACKGROUND.execute(() -> registerNow(properties, bean));
    }

    private static void registerNow(String properties, Object bean) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = name(properties);
            if (!server.isRegistered(name)) server.registerMBean(bean, name);
        } catch (JMException | RuntimeException e) {
            // another registration of the same name won, or JMX is not allowed here: metrics stay in Micrometer
            LOG.debug("jdbc:repl: could not register the MXBean " + properties + ": " + e);
        }
    }

    private record NodeBean(NodeMetrics node) implements NodeMXBean {
        @Override
        public long getCapturedStatements() {
            return node.capturedStatements();
        }

        @Override
        public long getCapturedLcrs() {
            return node.capturedLcrs();
        }

        @Override
        public long getCaptureTimeNanos() {
            return node.captureNanos();
        }
    }

    private record PeerBean(PeerMetrics peer) implements PeerMXBean {
        @Override
        public long getAppliedTransactions() {
            return peer.appliedTransactions();
        }

        @Override
        public long getQueuedTransactions() {
            return peer.queuedTransactions();
        }

        @Override
        public long getAppliedLcrs() {
            return peer.appliedLcrs();
        }

        @Override
        public long getBatches() {
            return peer.batches();
        }

        @Override
        public long getBatchTimeNanos() {
            return peer.batchNanos();
        }

        @Override
        public double getMeanDelayMillis() {
            long n = peer.delayedTransactions();
            return n == 0 ? -1 : (double) peer.delayMillis() / n;
        }

        /** What {@code status} says of the peer, or null where it cannot be read. */
        private PeerStatus status() {
            return peer.node().status().peer(peer.peer());
        }

        private long status(ToLongFunction<PeerStatus> value) {
            PeerStatus s = status();
            return s == null ? -1 : value.applyAsLong(s);
        }

        @Override
        public long getLagSeconds() {
            return status(PeerStatus::lagSeconds);
        }

        @Override
        public long getLagTransactions() {
            return status(PeerStatus::lagTransactions);
        }

        @Override
        public long getErrorQueueDepth() {
            return status(PeerStatus::queueDepth);
        }

        @Override
        public String getState() {
            PeerStatus s = status();
            return s == null ? "UNKNOWN" : s.state();
        }

        @Override
        public String getLastError() {
            PeerStatus s = status();
            return s == null ? null : s.lastError();
        }

        @Override
        public long getSecondsSinceApplied() {
            return status(PeerStatus::secondsSinceApplied);
        }

        @Override
        public Map<String, Long> getConflicts() {
            Map<String, Long> out = new TreeMap<>();
            peer.conflicts().forEach((k, v) -> out.put(k.table() + " " + k.kind() + " " + k.handlerTag() + " " + k.outcome(), v));
            return out;
        }
    }
}
