package io.overlapanalyze.cli;

import io.overlapanalyze.pipeline.Version;

/** Supplies {@code --version} to every command. */
public final class VersionProvider implements picocli.CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {Version.tool(),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"};
    }
}
