package io.overlapanalyze.cli;

import io.overlapanalyze.options.StandardOutput;
import io.overlapanalyze.options.SafeOutput;
import io.overlapanalyze.formats.input.Messages;
import io.overlapanalyze.options.OptionParsing;
import io.overlapanalyze.options.PathConverter;
import io.overlapanalyze.options.UserInputException;
import picocli.CommandLine;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Entry point: wires picocli, exit codes and one-line errors. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        // One buffered byte stream under both the text writer and the renderers that write bytes,
        // over a stream that remembers write errors (the PrintWriter swallows them).
        StandardOutput guard = new StandardOutput();
        SafeOutput.useStandardOutput(guard);
        OutputStream stdout = new BufferedOutputStream(guard, 1 << 16);
        PrintWriter out = new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(System.err, true);
        int code = execute(commandLine(out, err, stdout), args);
        out.flush();
        System.exit(withOutputChecked(code, guard.failure(), err));
    }

    /**
     * A report that did not reach standard output (a full disk, {@code > /dev/full}) is a failure,
     * whatever the command found: exit 2 with one line. A broken pipe is not reported.
     */
    static int withOutputChecked(int code, java.io.IOException failure, PrintWriter err) {
        if (failure == null) {
            return code;
        }
        err.println("overlap-analyze: cannot write to standard output: " + Messages.oneLine(failure));
        err.flush();
        return ExitCodes.BAD_INPUT;
    }

    /** Runs the CLI with the given streams and returns the exit code (tests call this). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = commandLine(out, err);
        return execute(cl, args);
    }

    /**
     * Runs the CLI as {@link #run(String[], PrintWriter, PrintWriter)} does, with {@code env} in place
     * of the process environment for what the report reads from it (terminal width, colour), so that
     * a test can fix it.
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err, java.util.Map<String, String> env) {
        return execute(commandLine(out, err, null, env), args);
    }

    /**
     * Runs {@code cl} on {@code args}; a {@link VirtualMachineError} or any other {@link Error} that
     * leaves the command (picocli hands only {@link Exception}s to the handler) is one line and exit
     * 3, never a stack trace and the JVM's exit 1, which is the gate's "regression" (issue 29).
     */
    static int execute(CommandLine cl, String[] args) {
        try {
            return cl.execute(args);
        } catch (Error e) {
            PrintWriter err = cl.getErr();
            err.println("overlap-analyze: " + ErrorHandler.errorLine(e));
            if (java.util.Arrays.asList(args).contains("--debug")) {
                e.printStackTrace(err);
            }
            err.flush();
            return ExitCodes.INTERNAL_ERROR;
        }
    }

    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        return commandLine(out, err, null);
    }

    private static CommandLine commandLine(PrintWriter out, PrintWriter err, OutputStream stdoutBytes) {
        return commandLine(out, err, stdoutBytes, System.getenv());
    }

    private static CommandLine commandLine(PrintWriter out, PrintWriter err, OutputStream stdoutBytes,
            java.util.Map<String, String> env) {
        // The subcommands are registered here, not by the root command, so no command class refers to another.
        CommandLine cl = new CommandLine(new AnalyzeCommand(stdoutBytes, env))
                .addSubcommand(new SynthCommand())
                .addSubcommand(new SummaryCommand(env))
                .addSubcommand(new DiffCommand())
                .addSubcommand(new GateCommand(env))
                .addSubcommand(new WhatIfCommand())
                .addSubcommand(new AnnotateCommand())
                .addSubcommand(new HistoryCommand())
                .addSubcommand(new CommandLine.HelpCommand());
        cl.setOut(out);
        cl.setErr(err);
        OptionParsing.configure(cl);
        cl.setExecutionExceptionHandler(new ErrorHandler());
        cl.setParameterExceptionHandler((ex, a) -> {
            CommandLine c = ex.getCommandLine();
            if (ex instanceof CommandLine.UnmatchedArgumentException u && u.getUnmatched().contains("")) {
                // picocli does not offer an empty word to the root command's paths: say what it is.
                c.getErr().println("overlap-analyze: " + PathConverter.EMPTY);
                c.getErr().flush();
                return ExitCodes.BAD_INPUT;
            }
            c.getErr().println("overlap-analyze: " + Messages.printable(ex.getMessage()));
            // A value that was given but cannot be taken (an empty path, a size without digits): the line names
            // the option and why; the help would add nothing. Other usage errors point to it.
            if (!(ex.getCause() instanceof CommandLine.TypeConversionException)) {
                c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for more information.");
            }
            c.getErr().flush();
            return ExitCodes.BAD_INPUT;
        });
        return cl;
    }

    /** Turns exceptions into one line on stderr and the right exit code. */
    static final class ErrorHandler implements CommandLine.IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception ex, CommandLine cl, CommandLine.ParseResult parseResult) {
            boolean debug = isDebug(parseResult);
            PrintWriter err = cl.getErr();
            int code;
            // A problem with the input, from the CLI's own checks, the pipeline or the reading front door.
            Error error = errorIn(ex);
            if (error != null) {
                // Thrown on a worker thread (a reader, the parallel analysis) and handed over wrapped.
                err.println("overlap-analyze: " + errorLine(error));
                code = ExitCodes.INTERNAL_ERROR;
            } else if (UserInputException.isInputProblem(ex)) {
                err.println("overlap-analyze: " + Messages.printable(ex.getMessage()));
                code = ExitCodes.BAD_INPUT;
            } else {
                err.println("overlap-analyze: internal error: " + Messages.printable(String.valueOf(ex))
                        + (debug ? "" : " (run with --debug for the stack trace, and please report it)"));
                code = ExitCodes.INTERNAL_ERROR;
            }
            if (debug) {
                ex.printStackTrace(err);
            }
            err.flush();
            return code;
        }

        /** The first {@link Error} in {@code t}'s causes (bounded: a cycle of causes ends the search). */
        static Error errorIn(Throwable t) {
            Throwable c = t;
            for (int depth = 0; c != null && depth < 64; depth++, c = c.getCause()) {
                if (c instanceof Error e) {
                    return e;
                }
            }
            return null;
        }

        /**
         * The one line for an {@link Error}: for memory, how big the heap was and how to raise it;
         * for the stack, that the input nests deeper than the tool can follow; else that it is a bug.
         */
        static String errorLine(Error e) {
            if (e instanceof OutOfMemoryError) {
                long heapMiB = Runtime.getRuntime().maxMemory() >> 20;
                return "out of memory (" + (e.getMessage() == null ? "" : Messages.printable(e.getMessage()) + "; ")
                        + "the Java heap is at most " + heapMiB + " MiB): give it more with "
                        + "OVERLAP_ANALYZE_JAVA_OPTS=-Xmx" + suggestedHeap(heapMiB)
                        + " (or analyse fewer ranks or steps at a time, --steps)";
            }
            if (e instanceof StackOverflowError) {
                return "internal error: stack overflow (an input nested deeper than the tool can follow?); "
                        + "OVERLAP_ANALYZE_JAVA_OPTS=-Xss64m gives it more stack; please report it with --debug";
            }
            return "internal error: " + Messages.printable(String.valueOf(e))
                    + " (run with --debug for the stack trace, and please report it)";
        }

        /** Twice the heap it had, in whole GiB, at least 2g. */
        private static String suggestedHeap(long heapMiB) {
            long gib = Math.max(2, (2 * heapMiB + 1023) / 1024);
            return gib + "g";
        }

        private static boolean isDebug(CommandLine.ParseResult pr) {
            for (CommandLine.ParseResult r = pr; r != null; r = r.subcommand()) {
                if (r.hasMatchedOption("--debug")) {
                    return true;
                }
            }
            return false;
        }
    }
}
