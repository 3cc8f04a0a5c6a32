package io.jdbcrepl.cli;

import java.util.List;

/**
 * One entry of the command table: its name, what it takes, its help text, and what it does. A
 * command either has subcommands ({@code errors list}, …) or runs itself.
 */
final class Command {

    /** Checks an invocation beyond what the option table can say (value formats, either-or). */
    interface Check {
        void check(Invocation invocation) throws UsageException;

        Check NONE = invocation -> {};
    }

    /** Runs the command; returns an {@link ExitCode}. */
    interface Action {
        int run(Invocation invocation) throws Exception;
    }

    final String name;            // "status", or "errors show" for a subcommand
    final String operands;        // usage text of positional operands, "" when none
    final int minOperands;
    final int maxOperands;
    final String summary;         // one line, for the command list
    final String description;     // a paragraph, for --help
    final List<Option> options;   // without --help, which every command has
    final Check check;
    final Action action;          // null for a group: its subcommands act
    final List<Command> subcommands;

    private Command(String name, String operands, int minOperands, int maxOperands, String summary,
                    String description, List<Option> options, Check check, Action action,
                    List<Command> subcommands) {
        this.name = name;
        this.operands = operands;
        this.minOperands = minOperands;
        this.maxOperands = maxOperands;
        this.summary = summary;
        this.description = description;
        this.options = options;
        this.check = check;
        this.action = action;
        this.subcommands = subcommands;
    }

    /** A command that runs itself. */
    static Command leaf(String name, String operands, int minOperands, int maxOperands,
                        String summary, String description, List<Option> options, Check check,
                        Action action) {
        return new Command(name, operands, minOperands, maxOperands, summary, description,
                List.copyOf(options), check, action, List.of());
    }

    /** A command whose first operand names one of its subcommands. */
    static Command group(String name, String summary, String description,
                         List<Command> subcommands) {
        return new Command(name, "<subcommand>", 1, Integer.MAX_VALUE, summary, description,
                List.of(), Check.NONE, null, List.copyOf(subcommands));
    }

    boolean isGroup() {
        return !subcommands.isEmpty();
    }

    Option option(String optionName) {
        for (Option option : options) {
            if (option.name().equals(optionName)) {
                return option;
            }
        }
        return null;
    }

    Command subcommand(String word) {
        for (Command sub : subcommands) {
            if (sub.name.equals(name + " " + word)) {
                return sub;
            }
        }
        return null;
    }

    /** The last word of the name: "show" for "errors show". */
    String shortName() {
        return name.substring(name.lastIndexOf(' ') + 1);
    }
}
