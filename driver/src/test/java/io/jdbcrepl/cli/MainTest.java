package io.jdbcrepl.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class MainTest {

    private static final String URL = "jdbc:repl:h2:mem:cli";
    private static final String SECRET = "s3cr3t-Pa55";

    /** The smallest valid arguments of every runnable command, after its name. */
    private static final Map<String, List<String>> VALID_ARGS = Map.ofEntries(
            Map.entry("demo", List.<String>of()),
            Map.entry("status", List.of("--url", URL)),
            Map.entry("wait", List.of("--url", URL)),
            Map.entry("errors list", List.of("--url", URL)),
            Map.entry("errors show", List.of("--url", URL, "dbs1.42")),
            Map.entry("errors retry", List.of("--url", URL, "dbs1.42")),
            Map.entry("errors delete", List.of("--url", URL, "dbs1.42")),
            Map.entry("verify", List.of("--url", URL, "--table", "hr.employees")),
            Map.entry("apply", List.of("--url", URL)),
            Map.entry("join", List.of("--url", URL, "--from", "n1")),
            Map.entry("refresh", List.of("--url", URL, "mv")),
            Map.entry("install", List.of("--url", URL)));

    /**
     * The exit code of every command but demo and refresh given valid arguments and {@link #URL}: it
     * names no node, so the command runs and fails saying so, a configuration error (2, as a usage
     * error: the README's exit codes).
     */
    private static final int VALID_EXIT = ExitCode.USAGE;

    /** {@link #VALID_EXIT}, but refresh needs no node: it reaches the database and fails there (1). */
    private static int validExit(String command) {
        return command.equals("refresh") ? ExitCode.FAILED : VALID_EXIT;
    }

    /**
     * That the command line was accepted and the command ran: it failed on the node-less URL (or,
     * refresh, on the database), not on its arguments, which exit with the same code 2.
     */
    private static void assertRan(String command, Result result) {
        assertThat(result.exitCode()).as(result.err()).isEqualTo(validExit(command));
        assertThat(result.err()).startsWith("jdbc-repl: " + command + " failed: ");
    }

    record Result(int exitCode, String out, String err) {
        String all() {
            return out + err;
        }
    }

    static Result run(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args.toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static Result run(String... args) {
        return run(List.of(args));
    }

    static Result runCommand(String command, List<String> args) {
        List<String> all = new ArrayList<>(List.of(command.split(" ")));
        all.addAll(args);
        return run(all);
    }

    /** Every command that runs itself, subcommands included. */
    static Stream<String> leafCommands() {
        return Commands.ALL.stream()
                .flatMap(c -> c.isGroup() ? c.subcommands.stream() : Stream.of(c))
                .map(c -> c.name);
    }

    static Stream<String> commandsWithUrl() {
        return leafCommands().filter(name -> !name.equals("demo"));
    }

    static Stream<String> allCommandNames() {
        return Stream.concat(Commands.ALL.stream().map(c -> c.name), leafCommands()).distinct();
    }

    @Test
    void everyRunnableCommandHasValidArgumentsInThisTest() {
        assertThat(leafCommands()).containsExactlyInAnyOrderElementsOf(VALID_ARGS.keySet());
    }

    @Test
    void theSpecsCommandsAreAllThere() {
        assertThat(leafCommands()).containsExactlyInAnyOrder("demo", "status", "wait", "errors list",
                "errors show", "errors retry", "errors delete", "verify", "refresh", "apply", "join", "install");
    }

    // --- global ---

    @Test
    void noArgumentsIsAUsageErrorThatShowsTheCommands() {
        Result result = run();
        assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).startsWith("jdbc-repl: no command given").contains("status", "install");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "-h", "help"})
    void globalHelpListsEveryCommandAndTheExitCodes(String help) {
        Result result = run(help);
        assertThat(result.exitCode()).isEqualTo(ExitCode.OK);
        assertThat(result.err()).isEmpty();
        for (Command command : Commands.ALL) {
            assertThat(result.out()).contains("  " + command.name + " ");
        }
        assertThat(result.out()).contains(ExitCode.SUMMARY);
    }

    @Test
    void versionPrintsTheProductAndAVersion() {
        Result result = run("--version");
        assertThat(result.exitCode()).isEqualTo(ExitCode.OK);
        assertThat(result.out()).matches("jdbc:repl \\S.*\\R");
    }

    @Test
    void unknownCommandIsOneLineAndAHint() {
        Result result = run("stauts", "--url", URL);
        assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(result.out()).isEmpty();
        assertThat(result.err().lines()).containsExactly(
                "jdbc-repl: unknown command 'stauts'",
                "Try 'java -jar jdbc-repl-driver.jar --help'.");
    }

    @Test
    void unknownGlobalOptionIsAUsageError() {
        Result result = run("--verbose", "status");
        assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(result.err()).startsWith("jdbc-repl: unknown option '--verbose'");
    }

    @Test
    void helpForAnUnknownTopicIsAUsageError() {
        assertThat(run("help", "nope").exitCode()).isEqualTo(ExitCode.USAGE);
    }

    // --- every command ---

    @ParameterizedTest
    @MethodSource("allCommandNames")
    void helpShowsUsageOptionsAndExitCodes(String command) {
        for (String help : List.of("--help", "-h")) {
            Result result = runCommand(command, List.of(help));
            assertThat(result.exitCode()).isEqualTo(ExitCode.OK);
            assertThat(result.err()).isEmpty();
            assertThat(result.out())
                    .startsWith("usage: java -jar jdbc-repl-driver.jar " + command)
                    .contains(ExitCode.SUMMARY);
        }
    }

    @ParameterizedTest
    @MethodSource("leafCommands")
    void helpListsEveryOption(String command) {
        String help = runCommand(command, List.of("--help")).out();
        for (Option option : commandNamed(command).options) {
            assertThat(help).contains(option.label());
        }
        assertThat(help).contains("-h, --help");
    }

    @ParameterizedTest
    @MethodSource("leafCommands")
    void helpThroughTheHelpCommandIsTheSame(String command) {
        List<String> args = new ArrayList<>(List.of("help"));
        args.addAll(List.of(command.split(" ")));
        assertThat(run(args).out()).isEqualTo(runCommand(command, List.of("--help")).out());
    }

    @ParameterizedTest
    @MethodSource("leafCommands")
    void helpWinsOverWrongArguments(String command) {
        Result result = runCommand(command, List.of("--no-such-option", "--help"));
        assertThat(result.exitCode()).isEqualTo(ExitCode.OK);
        assertThat(result.out()).startsWith("usage:");
    }

    @ParameterizedTest
    @MethodSource("commandsWithUrl") // demo with valid arguments runs the demo: DemoTest
    void validArgumentsReachTheCommand(String command) {
        Result result = runCommand(command, VALID_ARGS.get(command));
        assertThat(result.exitCode()).isEqualTo(validExit(command));
        assertThat(result.out()).isEmpty();
        assertThat(result.err().lines()).containsExactly(command.equals("refresh") // needs no node: reaches the database
                ? "jdbc-repl: refresh failed: Materialized view PUBLIC.MV does not exist (SQLState 42P01)"
                : "jdbc-repl: " + command + " failed: the URL names no node: add repl.node=<name> to its query string"
                        + " (SQLState 22023)");
    }

    @ParameterizedTest
    @MethodSource("leafCommands")
    void unknownOptionIsOneLineAndAHintToTheCommandsHelp(String command) {
        List<String> args = new ArrayList<>(VALID_ARGS.get(command));
        args.add("--colour");
        Result result = runCommand(command, args);
        assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(result.out()).isEmpty();
        assertThat(result.err().lines()).containsExactly(
                "jdbc-repl: unknown option '--colour' for '" + command + "'",
                "Try 'java -jar jdbc-repl-driver.jar " + command + " --help'.");
    }

    @ParameterizedTest
    @MethodSource("commandsWithUrl")
    void missingUrlIsAUsageError(String command) {
        List<String> args = new ArrayList<>(VALID_ARGS.get(command));
        int at = args.indexOf("--url");
        args.remove(at + 1);
        args.remove(at);
        Result result = runCommand(command, args);
        assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(result.err().lines()).containsExactly(
                "jdbc-repl: '" + command + "' needs --url <jdbc:repl:url>",
                "Try 'java -jar jdbc-repl-driver.jar " + command + " --help'.");
    }

    @ParameterizedTest
    @MethodSource("commandsWithUrl")
    void urlMustBeAReplUrlAndIsNotEchoed(String command) {
        List<String> args = new ArrayList<>(VALID_ARGS.get(command));
        args.set(args.indexOf(URL), "jdbc:postgresql://db1/hr?password=" + SECRET);
        Result result = runCommand(command, args);
        assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(result.err()).contains("--url must be a jdbc:repl: URL, not one starting 'jdbc:postgresql:'");
        assertThat(result.all()).doesNotContain(SECRET);
    }

    @ParameterizedTest
    @MethodSource("commandsWithUrl")
    void urlCanBeGivenWithAnEqualsSign(String command) {
        List<String> args = new ArrayList<>(VALID_ARGS.get(command));
        int at = args.indexOf("--url");
        args.remove(at + 1);
        args.set(at, "--url=" + URL);
        assertRan(command, runCommand(command, args));
    }

    @ParameterizedTest
    @MethodSource("commandsWithUrl")
    void passwordIsAcceptedAndNeverPrinted(String command) {
        List<String> valid = new ArrayList<>(VALID_ARGS.get(command));
        valid.addAll(List.of("--user", "repl", "--password", SECRET));
        Result ok = runCommand(command, valid);
        assertRan(command, ok);
        assertThat(ok.all()).doesNotContain(SECRET);

        List<String> twice = new ArrayList<>(valid);
        twice.add("--password=" + SECRET);
        Result repeated = runCommand(command, twice);
        assertThat(repeated.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(repeated.err()).contains("option '--password' is given twice");
        assertThat(repeated.all()).doesNotContain(SECRET);

        List<String> misspelt = new ArrayList<>(VALID_ARGS.get(command));
        misspelt.add("--pasword=" + SECRET);
        Result unknown = runCommand(command, misspelt);
        assertThat(unknown.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(unknown.all()).contains("'--pasword'").doesNotContain(SECRET);
    }

    @ParameterizedTest
    @MethodSource("commandsWithUrl")
    void optionWithoutItsValueIsAUsageError(String command) {
        List<String> args = new ArrayList<>(VALID_ARGS.get(command));
        args.add("--user");
        Result result = runCommand(command, args);
        assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(result.err()).startsWith("jdbc-repl: option '--user' needs a value <name>");
    }

    /** Commands with a bounded number of operands ({@code refresh} takes any number of views). */
    static Stream<String> boundedCommands() {
        return leafCommands().filter(name -> !name.equals("refresh"));
    }

    @ParameterizedTest
    @MethodSource("boundedCommands")
    void anOperandTooManyIsAUsageError(String command) {
        List<String> args = new ArrayList<>(VALID_ARGS.get(command));
        args.addAll(List.of("dbs1.1", "dbs1.2"));
        Result result = runCommand(command, args);
        assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(result.err()).startsWith("jdbc-repl: '" + command + "' takes ");
    }

    // --- per command ---

    @ParameterizedTest
    @ValueSource(strings = {"status", "errors list", "errors show", "verify"})
    void jsonIsAcceptedWhereItMakesSense(String command) {
        List<String> args = new ArrayList<>(VALID_ARGS.get(command));
        args.add("--json");
        assertRan(command, runCommand(command, args));

        args.set(args.size() - 1, "--json=yes");
        Result withValue = runCommand(command, args);
        assertThat(withValue.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(withValue.err()).startsWith("jdbc-repl: option '--json' takes no value");
    }

    @ParameterizedTest
    @ValueSource(strings = {"wait", "errors retry", "errors delete", "apply", "join", "install"})
    void jsonIsNotAnOptionOfCommandsThatOnlyAct(String command) {
        List<String> args = new ArrayList<>(VALID_ARGS.get(command));
        args.add("--json");
        assertThat(runCommand(command, args).exitCode()).isEqualTo(ExitCode.USAGE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"--nodes=1", "--nodes=10", "--nodes=x", "--seconds=0", "--seconds=3601", "--seconds=1.5"})
    void demoRejectsOutOfRangeNumbers(String option) {
        Result result = run("demo", option);
        assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(result.err()).startsWith("jdbc-repl: option '" + option.substring(0, option.indexOf('=')) + "' needs a whole number from ");
    }

    @Test
    void roleNamesGoWithGrants() {
        Result result = run("install", "--url", URL, "--reader-user", "r");
        assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(result.err()).startsWith("jdbc-repl: option '--reader-user' goes with --grants");
    }

    @Test
    void demoTakesAUrlPerNodeOrNone() {
        Result one = run("demo", "--url", URL);
        assertThat(one.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(one.err()).startsWith("jdbc-repl: 'demo' needs --url once per node, at least twice");
        Result both = run("demo", "--nodes", "3", "--url", URL + "1", "--url", URL + "2");
        assertThat(both.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(both.err()).startsWith("jdbc-repl: 'demo' got --nodes 3 and 2 --url options");
        Result notRepl = run("demo", "--url", URL, "--url", "jdbc:h2:mem:x");
        assertThat(notRepl.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(notRepl.err()).startsWith("jdbc-repl: --url must be a jdbc:repl: URL");
    }

    @Test
    void demoRefusesUrlsThatNameTheirNode() {
        Result result = run("demo", "--url", URL + "1?repl.node=a", "--url", URL + "2");
        assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE); // a configuration error
        assertThat(result.err()).contains("--url 1 sets repl.node: leave it out, the demo sets it");
    }

    @ParameterizedTest
    @ValueSource(strings = {"500ms", "30s", "5m", "1h", "7d", "30S"})
    void waitAcceptsDurations(String timeout) {
        assertRan("wait", run("wait", "--url", URL, "--timeout", timeout));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "30", "5x", "-1s", "1.5s", "s", "99999999999999999999d", "9999999999999999d"})
    void waitRejectsWhatIsNotADuration(String timeout) {
        Result result = run("wait", "--url", URL, "--timeout", timeout);
        assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(result.err()).startsWith("jdbc-repl: option '--timeout' ");
    }

    @Test
    void errorsNeedsASubcommand() {
        Result none = run("errors");
        assertThat(none.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(none.err().lines()).containsExactly(
                "jdbc-repl: 'errors' needs a subcommand: list, show, retry, delete",
                "Try 'java -jar jdbc-repl-driver.jar errors --help'.");

        Result unknown = run("errors", "purge", "--url", URL);
        assertThat(unknown.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(unknown.err()).startsWith("jdbc-repl: unknown subcommand 'purge' of 'errors'");
    }

    @Test
    void errorsHelpListsItsSubcommands() {
        Result result = run("errors", "--help");
        assertThat(result.exitCode()).isEqualTo(ExitCode.OK);
        assertThat(result.out()).contains("  list ", "  show ", "  retry ", "  delete ");
    }

    @Test
    void errorsRetryTakesATransactionOrAllButNotBoth() {
        assertRan("errors retry", run("errors", "retry", "--url", URL, "--all"));
        assertRan("errors retry", run("errors", "retry", "--url", URL, "dbs1.42"));

        Result both = run("errors", "retry", "--url", URL, "--all", "dbs1.42");
        assertThat(both.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(both.err()).startsWith("jdbc-repl: 'errors retry' takes either <entry-id> or --all, not both");

        Result neither = run("errors", "retry", "--url", URL);
        assertThat(neither.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(neither.err()).startsWith("jdbc-repl: 'errors retry' needs <entry-id> or --all");
    }

    @ParameterizedTest
    @ValueSource(strings = {"errors show", "errors delete"})
    void transactionIdIsRequired(String command) {
        Result result = runCommand(command, List.of("--url", URL));
        assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(result.err()).startsWith("jdbc-repl: '" + command + "' needs <entry-id>");
    }

    @Test
    void doubleDashEndsOptionsSoAnIdMayStartWithADash() {
        assertRan("errors show", run("errors", "show", "--url", URL, "--", "-42"));
        assertThat(run("errors", "show", "--url", URL, "-42").exitCode()).isEqualTo(ExitCode.USAGE);
    }

    @Test
    void verifyNeedsATable() {
        Result result = run("verify", "--url", URL);
        assertThat(result.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(result.err()).startsWith("jdbc-repl: 'verify' needs --table <[schema.]table>");
    }

    @ParameterizedTest
    @ValueSource(strings = {"errors show", "errors retry", "errors delete"})
    void errorsHelpNamesTheEntryIdItTakes(String command) {
        Result help = runCommand(command, List.of("--help"));
        assertThat(help.exitCode()).isEqualTo(ExitCode.OK);
        assertThat(help.out().lines().findFirst().orElseThrow()).endsWith("<entry-id>" + (command.equals("errors retry") ? "]" : ""));
        assertThat(help.out().replaceAll("\\s+", " ")).contains("<entry-id> (the ID column of 'errors list')")
                .doesNotContain("txn-id");
        assertThat(run("errors", "list", "--help").out().replaceAll("\\s+", " ")).contains("ID (what show, retry and delete take)");
    }

    /** The README's exit codes: 2 for usage and configuration errors, with the key and value named. */
    @Test
    void configurationErrorsExitTwoInOneLine() {
        Result unknownKey = run("status", "--url", "jdbc:repl:h2:mem:cli_cfg?repl.node=n1&repl.nosuch=1");
        assertThat(unknownKey.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(unknownKey.err().lines()).singleElement().asString()
                .startsWith("jdbc-repl: status failed: Unknown property repl.nosuch='1'").endsWith("(SQLState 42704)");
        Result badValue = run("wait", "--url", "jdbc:repl:h2:mem:cli_cfg?repl.node=n1&repl.install=maybe");
        assertThat(badValue.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(badValue.err().lines()).singleElement().asString()
                .startsWith("jdbc-repl: wait failed: Invalid value 'maybe' for repl.install").endsWith("(SQLState 22023)");
        Result vendorSetting = run("errors", "list", "--url", "jdbc:repl:h2:mem:cli_cfg;repl.node=n1");
        assertThat(vendorSetting.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(vendorSetting.err().lines()).singleElement().asString().contains("repl.node is written as a ;repl.node");
        assertThat(ExitCode.SUMMARY).isEqualTo("exit codes: 0 ok, 1 operation failed, 2 usage or configuration error");
    }

    /** What a command's action throws reaches the user as one line, whatever it is; exit code 1. */
    @Test
    void anyExceptionReachesTheUserAsOneLine() {
        List<Throwable> thrown = List.of(new NullPointerException("first\nsecond"), new IllegalStateException(),
                new StackOverflowError(), new java.sql.SQLException("ERROR: duplicate key\n  Detail: Key (id)=(1)\r\n  Where: x", "23505"));
        for (Throwable t : thrown) {
            Command failing = Command.leaf("boom", "", 0, 0, "fails", "Fails.", List.of(), Command.Check.NONE, invocation -> {
                if (t instanceof Error e) throw e;
                throw (Exception) t;
            });
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit = Main.runCommand(failing, List.of(), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            String text = err.toString(StandardCharsets.UTF_8);
            assertThat(exit).as(text).isEqualTo(ExitCode.FAILED);
            assertThat(text.lines()).as(text).singleElement().asString().startsWith("jdbc-repl: boom failed: ")
                    .doesNotContain("\tat ", "java.lang.");
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Main.runCommand(Command.leaf("boom", "", 0, 0, "fails", "Fails.", List.of(), Command.Check.NONE, invocation -> {
            throw new java.sql.SQLException("ERROR: duplicate key\n  Detail: Key (id)=(1)", "23505");
        }), List.of(), System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo("jdbc-repl: boom failed: ERROR: duplicate key Detail: Key (id)=(1) (SQLState 23505)\n");
    }

    @Test
    void statusOfANodeWithoutPeersSaysSo() {
        Result result = run("status", "--url", "jdbc:repl:h2:mem:cli_alone;DB_CLOSE_DELAY=-1?repl.node=alone");
        assertThat(result.exitCode()).as(result.err()).isEqualTo(ExitCode.OK);
        assertThat(result.out().lines().toList()).startsWith("Node alone", "No peers to apply from: the URL sets no repl.peers.");
        assertThat(result.out()).doesNotContain("PEER");
    }

    // --- status --watch ---

    private static final String ALONE = "jdbc:repl:h2:mem:cli_watch;DB_CLOSE_DELAY=-1?repl.node=alone";
    private static final String REFRESH_LINE = "At \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ, every 1s";

    /** Not a terminal (the output is a test's buffer): each refresh after a blank line, with its time; no ANSI codes. */
    @Test
    void statusWatchPrintsEachRefreshAfterABlankLineWithItsTime() {
        long start = System.nanoTime();
        Result result = run("status", "--url", ALONE, "--watch", "1", "--count", "2");
        assertThat(result.exitCode()).as(result.err()).isEqualTo(ExitCode.OK);
        assertThat(java.time.Duration.ofNanos(System.nanoTime() - start)).as("one interval between the two")
                .isGreaterThanOrEqualTo(java.time.Duration.ofSeconds(1));
        List<String> lines = result.out().lines().toList();
        assertThat(lines).hasSize(7);
        assertThat(lines.get(0)).matches(REFRESH_LINE + ", 1 of 2:");
        assertThat(lines.subList(1, 3)).containsExactly("Node alone", "No peers to apply from: the URL sets no repl.peers.");
        assertThat(lines.get(3)).isEmpty();
        assertThat(lines.get(4)).matches(REFRESH_LINE + ", 2 of 2:");
        assertThat(lines.subList(5, 7)).isEqualTo(lines.subList(1, 3));
        assertThat(result.out()).doesNotContain("\033");
        assertThat(result.err()).isEmpty();
    }

    @Test
    void statusWatchEndsWithExitCodeZeroWhenInterrupted() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int[] exit = {-1};
        Thread watching = new Thread(() -> exit[0] = Main.run(new String[] {"status", "--url", ALONE, "--watch=1"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream(), true,
                        StandardCharsets.UTF_8)));
        watching.start();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (!out.toString(StandardCharsets.UTF_8).contains("No peers")) {
            assertThat(System.nanoTime()).as("the first refresh").isLessThan(deadline);
            Thread.sleep(20);
        }
        watching.interrupt();
        watching.join(10_000);
        assertThat(watching.isAlive()).isFalse();
        assertThat(exit[0]).isEqualTo(ExitCode.OK);
        assertThat(out.toString(StandardCharsets.UTF_8)).matches("(?s)" + REFRESH_LINE + " until interrupted:\\R.*");
    }

    @Test
    void statusWatchDefaultsToEveryTwoSeconds() {
        Result result = run("status", "--url", ALONE, "--watch", "--count", "1");
        assertThat(result.exitCode()).as(result.err()).isEqualTo(ExitCode.OK);
        assertThat(result.out()).startsWith("At ").contains(", every 2s, 1 of 1:");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--watch=0", "--watch=86401", "--watch=x", "--watch=1.5", "--count=3", "--watch --count 0",
            "--watch --json", "--watch --watch"})
    void statusWatchRejectsWhatItCannotDo(String options) {
        List<String> args = new ArrayList<>(List.of("status", "--url", ALONE));
        args.addAll(List.of(options.split(" ")));
        Result result = run(args);
        assertThat(result.exitCode()).as(result.all()).isEqualTo(ExitCode.USAGE);
        assertThat(result.out()).isEmpty();
        assertThat(result.err().lines().toList()).hasSize(2).last().isEqualTo("Try 'java -jar jdbc-repl-driver.jar status --help'.");
    }

    /** What each option takes is named in the help: a kind and examples or a range where it has them. */
    @ParameterizedTest
    @ValueSource(strings = {"wait|--timeout <duration: 30s, 5m, 1h>", "status|--watch [seconds: 1-86400]",
            "status|--count <refreshes>", "demo|--nodes <count: 2-9>", "demo|--seconds <seconds: 1-3600>",
            "verify|--table <[schema.]table>", "install|--app-user <user>", "errors show|<entry-id>",
            "refresh|<view>...", "status|--url <jdbc:repl:url>"})
    void helpNamesWhatEachOptionTakes(String commandAndText) {
        String[] parts = commandAndText.split("\\|");
        Result help = runCommand(parts[0], List.of("--help"));
        assertThat(help.out().lines().findFirst().orElseThrow()).contains(parts[1]);
    }

    /** Exit code 1: the command ran and failed (here: no such entry); 2: the configuration cannot work. */
    @Test
    void operationFailuresExitOneAndConfigurationErrorsTwo() {
        for (String command : List.of("errors show", "errors retry", "errors delete")) {
            Result missing = runCommand(command, List.of("--url", ALONE, "424242"));
            assertThat(missing.exitCode()).as(command + ": " + missing.err()).isEqualTo(ExitCode.FAILED);
            assertThat(missing.err().lines()).as(command).singleElement().asString()
                    .startsWith("jdbc-repl: " + command + " failed: ").endsWith("(SQLState 02000)");
        }
        Result noPeers = run("apply", "--url", ALONE);
        assertThat(noPeers.exitCode()).as(noPeers.err()).isEqualTo(ExitCode.USAGE);
        assertThat(noPeers.err()).isEqualTo("jdbc-repl: apply failed: node alone has no repl.peers: nothing to apply from"
                + " (SQLState 22023)\n");
        Result waitAlone = run("wait", "--url", ALONE);
        assertThat(waitAlone.exitCode()).as(waitAlone.err()).isEqualTo(ExitCode.OK);
    }

    /** The README's table of commands names each command there is, and only options that command takes. */
    @Test
    void theReadmesCommandTableNamesRealCommandsAndOptions() throws java.io.IOException {
        String readme = java.nio.file.Files.readString(java.nio.file.Path.of("..", "README.md")).replace("\r\n", "\n");
        int start = readme.indexOf("| command | what it does |");
        assertThat(start).as("the README's table of commands").isNotNegative();
        List<String> rows = readme.substring(start).lines().skip(2).takeWhile(l -> l.startsWith("|")).toList();
        List<String> named = new ArrayList<>();
        for (String row : rows) {
            java.util.regex.Matcher first = java.util.regex.Pattern.compile("^\\| `([a-z]+)").matcher(row);
            assertThat(first.find()).as(row).isTrue();
            Command command = Commands.find(first.group(1));
            assertThat(command).as(row).isNotNull();
            named.add(command.name);
            List<Option> options = command.isGroup()
                    ? command.subcommands.stream().flatMap(c -> c.options.stream()).toList() : command.options;
            java.util.regex.Matcher option = java.util.regex.Pattern.compile("`(--[a-z-]+)").matcher(row);
            while (option.find()) {
                String name = option.group(1);
                assertThat(options).as("'%s' takes %s (README: %s)", command.name, name, row).anyMatch(o -> o.name().equals(name));
            }
        }
        assertThat(named).containsExactlyInAnyOrderElementsOf(Commands.ALL.stream().map(c -> c.name).toList());
    }

    private static Command commandNamed(String name) {
        String[] words = name.split(" ");
        Command command = Commands.find(words[0]);
        return words.length == 1 ? command : command.subcommand(words[1]);
    }
}
