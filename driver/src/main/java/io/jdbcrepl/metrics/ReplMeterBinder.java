package io.jdbcrepl.metrics;

import io.jdbcrepl.api.PeerStatus;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToDoubleFunction;

/**
 * The {@code jdbc.repl.*} meters of every node in this JVM, in a Micrometer registry (SPEC 8.5):
 * {@code new ReplMeterBinder().bindTo(registry)}. Micrometer's global registry gets them without
 * this, as soon as a node exists. Tags: {@code node}; {@code peer} for applying from a peer.
 *
 * <ul>
 *   <li>{@code jdbc.repl.capture.statements}, {@code jdbc.repl.capture.lcrs} (counters), {@code jdbc.repl.capture.time}
 *       (timer: time in captured statements, the statement included);
 *   <li>{@code jdbc.repl.apply.transactions} (counter, {@code outcome=applied|queued}), {@code jdbc.repl.apply.lcrs},
 *       {@code jdbc.repl.apply.batch} (timer: a local transaction, first change to commit), {@code jdbc.repl.apply.delay}
 *       (timer: capture at the peer to commit here, by two databases' clocks);
 *   <li>{@code jdbc.repl.conflicts} (counter, tags {@code table}, {@code kind}, {@code handler}, {@code outcome});
 *   <li>read from the database as {@code status} shows it: {@code jdbc.repl.lag} (seconds: age of the oldest
 *       transaction committed at the peer and not applied here), {@code jdbc.repl.lag.transactions},
 *       {@code jdbc.repl.error.queue} (entries), {@code jdbc.repl.apply.idle} (seconds since the last
 *       transaction from the peer was applied), {@code jdbc.repl.applier.state} (1 for the applier's state,
 *       tag {@code state}, 0 for the others).
 * </ul>
 */
public final class ReplMeterBinder implements MeterBinder {

    /** The states {@code status} shows, one {@code jdbc.repl.applier.state} gauge each. */
    static final List<String> STATES = List.of("STARTING", "JOINING", "STANDBY", "RUNNING", "PAUSED", "UNREACHABLE", "STOPPED",
            "DROPPED", "REWOUND", "NOT_RUNNING");

    private static final Set<MeterRegistry> BOUND = Collections.newSetFromMap(new IdentityHashMap<>());

    @Override
    public void bindTo(MeterRegistry registry) {
        synchronized (BOUND) {
            if (!BOUND.add(registry)) return;
        }
        ReplMetrics.observe(new Meters(registry));
    }

    static void bindGlobal() {
        new ReplMeterBinder().bindTo(Metrics.globalRegistry);
    }

    private record Meters(MeterRegistry registry) implements ReplMetrics.Observer {

        @Override
        public void node(NodeMetrics node) {
            Tags tags = Tags.of("node", node.node());
            FunctionCounter.builder("jdbc.repl.capture.statements", node, NodeMetrics::capturedStatements)
                    .tags(tags).description("Executions of captured statements").register(registry);
            FunctionCounter.builder("jdbc.repl.capture.lcrs", node, NodeMetrics::capturedLcrs)
                    .tags(tags).description("Rows changed by captured statements, one LCR each").register(registry);
            FunctionTimer.builder("jdbc.repl.capture.time", node, NodeMetrics::capturedStatements,
                    NodeMetrics::captureNanos, TimeUnit.NANOSECONDS)
                    .tags(tags).description("Time in captured statements, the statement included").register(registry);
        }

        @Override
        public void peer(PeerMetrics peer) {
            Tags tags = Tags.of("node", peer.node().node(), "peer", peer.peer());
            FunctionCounter.builder("jdbc.repl.apply.transactions", peer, PeerMetrics::appliedTransactions)
                    .tags(tags).tag("outcome", "applied").description("Source transactions applied").register(registry);
            FunctionCounter.builder("jdbc.repl.apply.transactions", peer, PeerMetrics::queuedTransactions)
                    .tags(tags).tag("outcome", "queued").description("Source transactions moved to the error queue")
                    .register(registry);
            FunctionCounter.builder("jdbc.repl.apply.lcrs", peer, PeerMetrics::appliedLcrs)
                    .tags(tags).description("LCRs applied").register(registry);
            FunctionTimer.builder("jdbc.repl.apply.batch", peer, PeerMetrics::batches, PeerMetrics::batchNanos,
                    TimeUnit.NANOSECONDS).tags(tags).description("Local transactions of the applier").register(registry);
            FunctionTimer.builder("jdbc.repl.apply.delay", peer, PeerMetrics::delayedTransactions,
                    PeerMetrics::delayMillis, TimeUnit.MILLISECONDS)
                    .tags(tags).description("From capture at the peer to commit here").register(registry);
            StatusSnapshot status = peer.node().status();
            String name = peer.peer();
            TimeGauge.builder("jdbc.repl.lag", status, TimeUnit.SECONDS, s -> known(s.peer(name), PeerStatus::lagSeconds))
                    .tags(tags).description("Age of the oldest transaction committed at the peer and not applied here")
                    .register(registry);
            Gauge.builder("jdbc.repl.lag.transactions", status, s -> known(s.peer(name), PeerStatus::lagTransactions))
                    .tags(tags).description("Transactions committed at the peer and not applied here").register(registry);
            Gauge.builder("jdbc.repl.error.queue", status, s -> known(s.peer(name), PeerStatus::queueDepth))
                    .tags(tags).description("Entries of the peer in the error queue").register(registry);
            TimeGauge.builder("jdbc.repl.apply.idle", status, TimeUnit.SECONDS,
                    s -> known(s.peer(name), PeerStatus::secondsSinceApplied))
                    .tags(tags).description("Since a transaction from the peer was last applied here").register(registry);
            for (String state : STATES) {
                Gauge.builder("jdbc.repl.applier.state", status, s -> {
                    PeerStatus p = s.peer(name);
                    return p == null ? Double.NaN : state.equals(p.state()) ? 1 : 0;
                }).tags(tags).tag("state", state).description("1 for the applier's state as status shows it")
                        .register(registry);
            }
        }

        /** A status value, NaN where the status could not be read or says -1 (unknown). */
        private static double known(PeerStatus s, ToDoubleFunction<PeerStatus> value) {
            if (s == null) return Double.NaN;
            double v = value.applyAsDouble(s);
            return v < 0 ? Double.NaN : v;
        }

        @Override
        public void conflict(PeerMetrics peer, ConflictKey key, LongAdder count) {
            FunctionCounter.builder("jdbc.repl.conflicts", count, LongAdder::sum)
                    .tags("node", peer.node().node(), "peer", peer.peer(), "table", key.table(), "kind", key.kind(),
                            "handler", key.handlerTag(), "outcome", key.outcome())
                    .description("Conflicts met applying, by what came of them").register(registry);
        }
    }
}
