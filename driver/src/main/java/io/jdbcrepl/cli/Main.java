package io.jdbcrepl.cli;

import io.jdbcrepl.ReplDriver;

import java.io.InputStream;
import java.io.PrintStream;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * The driver jar's command line ({@code java -jar jdbc-repl-driver.jar <command> …}): the
 * commands of SPEC section 7, each with {@code --help}. Exit codes are those of {@link ExitCode}.
 *
 * <p>Parsing is plain code on purpose: the driver jar lands on application class paths and
 * carries no CLI library. {@link #run} writes only to the streams it is given and returns the exit
 * code, so tests call it directly; only {@link #main} exits the JVM.
 */
public final class Main {

    static final String PROGRAM = "java -jar jdbc-repl-driver.jar";
    private static final String NAME = "jdbc-repl";

    private Main() {}

    public static void main(String[] args) {
        VendorDrivers.registerBesideJar();
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs one command line; returns its exit code. Whatever goes wrong reaches the user as one line
     * on {@code err}, never as a stack trace.
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            return dispatch(args, out, err);
        } catch (RuntimeException | Error e) { // a bug outside any command's action (parsing, help)
            err.println(NAME + ": internal error: " + describe(e));
            return ExitCode.FAILED;
        }
    }

    private static int dispatch(String[] args, PrintStream out, PrintStream err) {
        List<String> words = Arrays.asList(args);
        if (words.isEmpty()) {
            err.println(NAME + ": no command given");
            err.println();
            printOverview(err);
            return ExitCode.USAGE;
        }
        String first = words.get(0);
        List<String> rest = words.subList(1, words.size());
        switch (first) {
            case "--help", "-h", "help":
                return help(rest, out, err);
            case "--version":
                out.println("jdbc:repl " + version());
                return ExitCode.OK;
            default:
                break;
        }
        if (first.startsWith("-")) {
            return usageError(new UsageException("unknown option '" + first + "'"), null, err);
        }
        Command command = Commands.find(first);
        if (command == null) {
            return usageError(new UsageException("unknown command '" + first + "'"), null, err);
        }
        return runCommand(command, rest, out, err);
    }

    static int runCommand(Command command, List<String> args, PrintStream out, PrintStream err) {
        if (command.isGroup()) {
            if (args.isEmpty() || isHelp(args.get(0))) {
                if (args.isEmpty()) {
                    return usageError(new UsageException("'" + command.name + "' needs a subcommand: "
                            + subcommandNames(command)), command, err);
                }
                printHelp(command, out);
                return ExitCode.OK;
            }
            Command sub = command.subcommand(args.get(0));
            if (sub == null) {
                return usageError(new UsageException("unknown subcommand '" + args.get(0) + "' of '"
                        + command.name + "'; it has " + subcommandNames(command)), command, err);
            }
            return runCommand(sub, args.subList(1, args.size()), out, err);
        }
        // --help wins over any other argument, right or wrong, as users expect.
        int end = args.indexOf("--");
        for (String arg : end < 0 ? args : args.subList(0, end)) {
            if (isHelp(arg)) {
                printHelp(command, out);
                return ExitCode.OK;
            }
        }
        Invocation invocation;
        try {
            invocation = Invocation.parse(command, args, out, err);
            command.check.check(invocation);
        } catch (UsageException e) {
            return usageError(e, command, err);
        }
        try {
            return command.action.run(invocation);
        } catch (UsageException e) { // an operand only the action can check (an entry's id)
            return usageError(e, command, err);
        } catch (SQLException e) {
            err.println(NAME + ": " + command.name + " failed: " + oneLine(e.getMessage())
                    + (e.getSQLState() == null ? "" : " (SQLState " + e.getSQLState() + ")"));
            return ConfigurationException.is(e) ? ExitCode.USAGE : ExitCode.FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println(NAME + ": " + command.name + " interrupted");
            return ExitCode.FAILED;
        } catch (Exception | Error e) {
            err.println(NAME + ": " + command.name + " failed: " + describe(e));
            return ExitCode.FAILED;
        }
    }

    /** An exception that is no SQLException (a bug, or a resource gone): its kind and message, on one line. */
    private static String describe(Throwable e) {
        String message = e.getMessage();
        return "internal error " + e.getClass().getSimpleName()
                + (message == null || message.isBlank() ? "" : ": " + oneLine(message));
    }

    /** A message on one line: a database's multi-line message (detail, hint, position) joined with blanks. */
    static String oneLine(String message) {
        return message == null ? "" : message.strip().replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }

    private static int help(List<String> topic, PrintStream out, PrintStream err) {
        if (topic.isEmpty()) {
            printOverview(out);
            return ExitCode.OK;
        }
        Command command = Commands.find(topic.get(0));
        if (command != null && topic.size() > 1 && command.isGroup()) {
            command = command.subcommand(topic.get(1));
        }
        if (command == null) {
            return usageError(new UsageException("no help for '" + String.join(" ", topic)
                    + "': no such command"), null, err);
        }
        printHelp(command, out);
        return ExitCode.OK;
    }

    private static boolean isHelp(String arg) {
        return arg.equals("--help") || arg.equals("-h");
    }

    private static int usageError(UsageException e, Command command, PrintStream err) {
        err.println(NAME + ": " + e.getMessage());
        err.println("Try '" + PROGRAM + (command == null ? "" : " " + command.name) + " --help'.");
        return ExitCode.USAGE;
    }

    private static String subcommandNames(Command group) {
        StringBuilder names = new StringBuilder();
        for (Command sub : group.subcommands) {
            names.append(names.length() == 0 ? "" : ", ").append(sub.shortName());
        }
        return names.toString();
    }

    static void printOverview(PrintStream out) {
        out.println("jdbc:repl " + version() + ": replication through the JDBC driver");
        out.println();
        out.println("usage: " + PROGRAM + " <command> [options]");
        out.println("       " + PROGRAM + " <command> --help");
        out.println("       " + PROGRAM + " --version");
        out.println();
        out.println("Commands:");
        for (Command command : Commands.ALL) {
            out.printf("  %-9s %s%n", command.name, command.summary);
        }
        out.println();
        out.println("Every command but demo takes --url with a jdbc:repl: URL; repl.* keys come from its");
        out.println("query string or from the file named by repl.config.");
        out.println(ExitCode.SUMMARY);
    }

    static void printHelp(Command command, PrintStream out) {
        StringBuilder usage = new StringBuilder("usage: " + PROGRAM + " " + command.name);
        if (command.isGroup()) {
            usage.append(" <subcommand> [options]");
        } else {
            for (Option option : command.options) {
                usage.append(' ').append(option.synopsis());
            }
            if (!command.operands.isEmpty()) {
                usage.append(' ').append(command.minOperands == 0 ? "[" + command.operands + "]" : command.operands);
            }
        }
        out.println(usage);
        out.println();
        out.println(command.description);
        out.println();
        if (command.isGroup()) {
            out.println("Subcommands:");
            for (Command sub : command.subcommands) {
                out.printf("  %-8s %s%n", sub.shortName(), sub.summary);
            }
            out.println();
            out.println("Run '" + PROGRAM + " " + command.name + " <subcommand> --help' for its options.");
        } else {
            out.println("Options:");
            int width = "-h, --help".length();
            for (Option option : command.options) {
                width = Math.max(width, option.label().length());
            }
            for (Option option : command.options) {
                out.printf("  %-" + width + "s  %s%s%n", option.label(), option.description(),
                        option.required() ? " (required)" : "");
            }
            out.printf("  %-" + width + "s  %s%n", "-h, --help", "show this help");
        }
        out.println(ExitCode.SUMMARY);
    }

    /**
     * The driver's version: from the jar manifest's Implementation-Version when the build writes
     * one, else from Maven's pom.properties, else the driver's major.minor version.
     */
    static String version() {
        String fromManifest = Main.class.getPackage().getImplementationVersion();
        if (fromManifest != null) {
            return fromManifest;
        }
        try (InputStream in = Main.class.getResourceAsStream(
                "/META-INF/maven/io.jdbcrepl/jdbc-repl-driver/pom.properties")) {
            if (in != null) {
                Properties pom = new Properties();
                pom.load(in);
                String version = pom.getProperty("version");
                if (version != null) {
                    return version;
                }
            }
        } catch (java.io.IOException ignored) {
            // fall through: a version is nice to have, not worth failing --version over
        }
        return ReplDriver.MAJOR_VERSION + "." + ReplDriver.MINOR_VERSION;
    }
}
