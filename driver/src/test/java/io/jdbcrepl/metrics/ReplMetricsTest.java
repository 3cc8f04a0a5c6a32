package io.jdbcrepl.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ReplMetricsTest {

    @Test
    void appliedGroupsAddUpAndTheirDelayIsCommitTimeLessCaptureTime() {
        PeerMetrics p = ReplMetrics.node("unit-a").peer("unit-b");
        long now = System.currentTimeMillis();
        p.committed(3, 1, 7, 5_000, 2, (now - 2_000) + (now - 4_000));
        p.committed(1, 0, 1, 1_000, 0, 0);
        assertThat(p.appliedTransactions()).isEqualTo(4);
        assertThat(p.queuedTransactions()).isEqualTo(1);
        assertThat(p.appliedLcrs()).isEqualTo(8);
        assertThat(p.batches()).isEqualTo(2);
        assertThat(p.batchNanos()).isEqualTo(6_000);
        assertThat(p.delayedTransactions()).isEqualTo(2);
        assertThat(p.delayMillis()).isBetween(6_000L, 6_500L);
    }

    @Test
    void aSourceClockAheadOfOursCountsNoDelayRatherThanANegativeOne() {
        PeerMetrics p = ReplMetrics.node("unit-c").peer("unit-d");
        p.committed(1, 0, 1, 1, 1, System.currentTimeMillis() + 60_000);
        assertThat(p.delayMillis()).isZero();
        assertThat(p.delayedTransactions()).isOne();
    }

    @Test
    void aRegistryBoundLaterSeesTheNodesPeersAndConflictsThereAreAndThoseToCome() {
        PeerMetrics before = ReplMetrics.node("unit-e").peer("unit-f");
        before.conflict(new ConflictKey("s.t", "UPDATE", null, "NO_HANDLER"));
        before.conflict(new ConflictKey("s.t", "UPDATE", null, "NO_HANDLER"));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new ReplMeterBinder().bindTo(registry);
        new ReplMeterBinder().bindTo(registry); // twice: no second set of meters
        PeerMetrics after = ReplMetrics.node("unit-e").peer("unit-g");
        after.conflict(new ConflictKey("s.u", "DELETE", "h", "LCR_APPLIED"));
        ReplMetrics.node("unit-e").captured(2, 5, 300);

        assertThat(registry.get("jdbc.repl.conflicts").tags("node", "unit-e", "peer", "unit-f", "table", "s.t",
                "handler", "none", "outcome", "NO_HANDLER").functionCounter().count()).isEqualTo(2);
        assertThat(registry.get("jdbc.repl.conflicts").tags("node", "unit-e", "peer", "unit-g", "kind", "DELETE",
                "handler", "h").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("jdbc.repl.capture.lcrs").tag("node", "unit-e").functionCounter().count()).isEqualTo(5);
        assertThat(registry.get("jdbc.repl.capture.time").tag("node", "unit-e").functionTimer()
                .totalTime(TimeUnit.NANOSECONDS)).isEqualTo(300);
        assertThat(registry.get("jdbc.repl.apply.transactions").tags("peer", "unit-g", "outcome", "queued").functionCounter())
                .isNotNull();
        // no status source: the gauges read from the database have no value rather than a made-up one
        assertThat(registry.get("jdbc.repl.lag").tags("node", "unit-e", "peer", "unit-g").timeGauge().value()).isNaN();
        assertThat(registry.get("jdbc.repl.applier.state").tags("peer", "unit-g", "state", "RUNNING").gauge().value()).isNaN();
        assertThat(registry.find("jdbc.repl.applier.state").tags("node", "unit-e", "peer", "unit-f").gauges())
                .hasSize(ReplMeterBinder.STATES.size());
    }
}
