package io.jdbcrepl.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One parsed command line for one command, and where its output goes. */
final class Invocation {

    static final String URL_PREFIX = "jdbc:repl:";

    final Command command;
    final PrintStream out;
    final PrintStream err;
    private final Map<String, String> values = new HashMap<>();
    private final Map<String, List<String>> repeated = new HashMap<>();
    private final Set<String> flags = new HashSet<>();
    private final List<String> operands = new ArrayList<>();

    private Invocation(Command command, PrintStream out, PrintStream err) {
        this.command = command;
        this.out = out;
        this.err = err;
    }

    /**
     * Parses the arguments that follow the command's name. Messages name options, never their
     * values: a value may be a password, or a URL with one in it.
     */
    static Invocation parse(Command command, List<String> args, PrintStream out, PrintStream err)
            throws UsageException {
        Invocation invocation = new Invocation(command, out, err);
        boolean optionsEnded = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (optionsEnded || !arg.startsWith("-") || arg.equals("-")) {
                invocation.operands.add(arg);
                continue;
            }
            if (arg.equals("--")) {
                optionsEnded = true;
                continue;
            }
            int equals = arg.indexOf('=');
            String name = equals < 0 ? arg : arg.substring(0, equals);
            Option option = command.option(name);
            if (option == null) {
                throw new UsageException("unknown option '" + name + "' for '" + command.name + "'");
            }
            if (!option.repeatable() && (invocation.values.containsKey(name) || invocation.flags.contains(name))) {
                throw new UsageException("option '" + name + "' is given twice");
            }
            if (!option.takesValue()) {
                if (equals >= 0) {
                    throw new UsageException("option '" + name + "' takes no value");
                }
                invocation.flags.add(name);
            } else if (option.valueOptional()) {
                invocation.flags.add(name);
                if (equals >= 0) {
                    invocation.put(name, arg.substring(equals + 1));
                } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("-")) {
                    invocation.put(name, args.get(++i));
                }
            } else if (equals >= 0) {
                invocation.put(name, arg.substring(equals + 1));
            } else if (i + 1 < args.size()) {
                invocation.put(name, args.get(++i));
            } else {
                throw new UsageException("option '" + name + "' needs a value <" + option.valueName() + ">");
            }
        }
        invocation.checkOperandCount();
        for (Option option : command.options) {
            if (option.required() && !invocation.values.containsKey(option.name())) {
                throw new UsageException("'" + command.name + "' needs " + option.label());
            }
        }
        for (String url : invocation.values(Option.URL.name())) {
            if (!url.startsWith(URL_PREFIX)) {
                throw new UsageException("--url must be a " + URL_PREFIX + " URL, not " + describeUrl(url));
            }
        }
        return invocation;
    }

    private void put(String name, String value) {
        values.put(name, value);
        repeated.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
    }

    private void checkOperandCount() throws UsageException {
        int count = operands.size();
        if (count < command.minOperands) {
            throw new UsageException("'" + command.name + "' needs " + command.operands);
        }
        if (count > command.maxOperands) {
            String extra = operands.get(command.maxOperands);
            throw new UsageException(command.maxOperands == 0
                    ? "'" + command.name + "' takes no operand, but got '" + extra + "'"
                    : "'" + command.name + "' takes only " + command.operands + ", but also got '" + extra + "'");
        }
    }

    /** Names a wrong URL by its scheme only, since the rest may hold a password. */
    private static String describeUrl(String url) {
        Matcher scheme = Pattern.compile("^jdbc:[A-Za-z0-9_-]+:").matcher(url);
        return scheme.find() ? "one starting '" + scheme.group() + "'" : "a value of another form";
    }

    String value(String optionName) {
        return values.get(optionName);
    }

    /** Every value of a repeatable option, in order; empty when it is absent. */
    List<String> values(String optionName) {
        return List.copyOf(repeated.getOrDefault(optionName, List.of()));
    }

    /** Whether a flag, or an option whose value is optional, was given. */
    boolean flag(String optionName) {
        return flags.contains(optionName);
    }

    List<String> operands() {
        return List.copyOf(operands);
    }

    String url() {
        return values.get(Option.URL.name());
    }

    /** A whole-number option within {@code [min, max]}, or {@code fallback} when it is absent. */
    int integer(String optionName, int fallback, int min, int max) throws UsageException {
        String text = values.get(optionName);
        if (text == null) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= min && value <= max) return value;
        } catch (NumberFormatException notANumber) {
            // the message below says what is wanted
        }
        throw new UsageException("option '" + optionName + "' needs a whole number from " + min + " to " + max
                + ", not '" + text + "'");
    }

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    /**
     * A duration option such as {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 7d}
     * (the units of the repl.* duration keys), or {@code fallback} when the option is absent.
     */
    Duration duration(String optionName, Duration fallback) throws UsageException {
        String text = values.get(optionName);
        if (text == null) {
            return fallback;
        }
        Matcher matcher = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new UsageException("option '" + optionName + "' needs a duration such as 30s, 5m or 1h, not '" + text + "'");
        }
        try {
            long amount = Long.parseLong(matcher.group(1));
            return switch (matcher.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            };
        } catch (NumberFormatException | ArithmeticException tooLarge) {
            throw new UsageException("option '" + optionName + "' is too large: '" + text + "'");
        }
    }
}
