package io.jdbcrepl.cli;

import io.jdbcrepl.api.NodeStatus;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class StatusWatchTest {

    private static final NodeStatus STATUS = new NodeStatus("n1", List.of(), List.of(), List.of(), null);

    /** On a terminal each refresh clears the screen and starts at its top, instead of a blank line. */
    @Test
    void onATerminalEachRefreshReplacesTheLast() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int exit = new StatusWatch(new PrintStream(bytes, true, StandardCharsets.UTF_8), true, 1, 2)
                .run(() -> STATUS, (status, out) -> out.println("status of " + status.node()));
        assertThat(exit).isEqualTo(ExitCode.OK);
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(List.of(text.split("\033\\[H\033\\[2J", -1))).hasSize(3).first().isEqualTo("");
        assertThat(text).doesNotContain("\n\n").contains(", 2 of 2:\nstatus of n1\n");
    }

    /** A refresh that fails says why in its place and the watch goes on; the last one decides the exit code. */
    @Test
    void aFailedRefreshIsShownAndTheWatchGoesOn() {
        AtomicInteger reads = new AtomicInteger();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StatusWatch.Source failsFirst = () -> {
            if (reads.incrementAndGet() == 1) throw new SQLException("Connection refused\nat host", "08001");
            return STATUS;
        };
        int exit = new StatusWatch(new PrintStream(bytes, true, StandardCharsets.UTF_8), false, 1, 2)
                .run(failsFirst, (status, out) -> out.println("status of " + status.node()));
        assertThat(exit).isEqualTo(ExitCode.OK);
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(5);
        assertThat(lines.get(1)).isEqualTo("status failed: Connection refused at host (SQLState 08001)");
        assertThat(lines.get(4)).isEqualTo("status of n1");

        ByteArrayOutputStream last = new ByteArrayOutputStream();
        assertThat(new StatusWatch(new PrintStream(last, true, StandardCharsets.UTF_8), false, 1, 1)
                .run(() -> { throw new SQLException("down", "08001"); }, (status, out) -> { }))
                .isEqualTo(ExitCode.FAILED);
    }

    @Test
    void aStreamOtherThanStandardOutputIsNoTerminal() {
        assertThat(StatusWatch.isTerminal(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))).isFalse();
    }
}
