package io.jdbcrepl.spring;

import io.jdbcrepl.api.NodeStatus;
import io.jdbcrepl.api.PeerStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReplHealthTest {

    private static final Duration LIMIT = Duration.ofSeconds(30);

    @ParameterizedTest
    @ValueSource(strings = {"STOPPED", "DROPPED", "REWOUND", "NOT_RUNNING"})
    void anApplierThatWaitsForAnOperatorIsDown(String state) {
        Health health = ReplHealth.of(node(peer("n2", state, 0), peer("n3", "RUNNING", 0)), LIMIT);
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails().get("problems")).isEqualTo(List.of("n2: applier " + state));
    }

    @ParameterizedTest
    @ValueSource(strings = {"RUNNING", "STARTING", "STANDBY", "PAUSED", "UNREACHABLE"})
    void anApplierThatGoesOnByItselfIsUp(String state) {
        Health health = ReplHealth.of(node(peer("n2", state, state.equals("UNREACHABLE") ? -1 : 3)), LIMIT);
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).doesNotContainKey("problems");
        assertThat(peerDetails(health, "n2").get("state")).isEqualTo(state);
    }

    @Test
    void lagAboveTheLimitIsDown() {
        assertThat(ReplHealth.of(node(peer("n2", "RUNNING", 30)), LIMIT).getStatus()).isEqualTo(Status.UP);
        Health late = ReplHealth.of(node(peer("n2", "RUNNING", 31)), LIMIT);
        assertThat(late.getStatus()).isEqualTo(Status.DOWN);
        assertThat(late.getDetails().get("problems")).isEqualTo(List.of("n2: lag 31s above 30s"));
    }

    @Test
    void aNodeWithoutPeersIsUp() {
        Health health = ReplHealth.of(node(), LIMIT);
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("node", "n1").containsEntry("lagLimitSeconds", 30L);
    }

    @Test
    void detailsSayWhatStatusSays() {
        PeerStatus p = new PeerStatus("n2", "7", "6", 1, 2, 3, 4, "PAUSED", "disk full", "no grant", 5);
        Health health = ReplHealth.of(new NodeStatus("n1", List.of(p), List.of("n9"), List.of(), "why"), LIMIT);
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("state", "PAUSED");
        expected.put("lagSeconds", 2L);
        expected.put("lagTransactions", 1L);
        expected.put("queueDepth", 3L);
        expected.put("errorCount", 4L);
        expected.put("secondsSinceApplied", 5L);
        expected.put("lastError", "disk full");
        expected.put("subscribeDenied", "no grant");
        assertThat(peerDetails(health, "n2")).isEqualTo(expected);
        assertThat(health.getDetails()).containsEntry("droppedSubscribers", List.of("n9")).containsEntry("purgeBlocked", "why");
    }

    private static Map<?, ?> peerDetails(Health health, String peer) {
        return (Map<?, ?>) ((Map<?, ?>) health.getDetails().get("peers")).get(peer);
    }

    static NodeStatus node(PeerStatus... peers) {
        return new NodeStatus("n1", List.of(peers), List.of(), List.of(), null);
    }

    static PeerStatus peer(String name, String state, long lagSeconds) {
        return new PeerStatus(name, null, null, lagSeconds < 0 ? -1 : 0, lagSeconds, 0, 0, state, null, null, -1);
    }
}
