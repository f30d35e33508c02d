package io.overlapanalyze.formats.flightrecorder;

import net.razorvine.pickle.Opcodes;
import net.razorvine.pickle.PickleException;
import net.razorvine.pickle.Unpickler;

import java.io.IOException;

/**
 * Pyrolite's unpickler restricted to the plain values a Flight Recorder dump holds: dicts, lists,
 * tuples, strings, numbers, booleans and None. A dump is untrusted input (it comes from the job, maybe
 * from a shared file system), so every opcode that names a class or a global, calls one, or builds an
 * object from one ({@code GLOBAL}, {@code STACK_GLOBAL}, {@code REDUCE}, {@code BUILD}, {@code INST},
 * {@code OBJ}, {@code NEWOBJ}, extension codes, persistent ids, out-of-band buffers) is refused before
 * Pyrolite acts on it: nothing in the file can choose what gets constructed.
 */
final class PlainUnpickler extends Unpickler {
    /** Thrown for an opcode that is not plain data; its message names the opcode. */
    static final class RefusedOpcode extends PickleException {
        RefusedOpcode(String message) {
            super(message);
        }
    }

    @Override
    protected Object dispatch(short key) throws PickleException, IOException {
        String refused = refusedName(key);
        if (refused != null) {
            throw new RefusedOpcode(refused);
        }
        return super.dispatch(key);
    }

    private static String refusedName(short key) {
        return switch (key) {
            case Opcodes.GLOBAL -> "GLOBAL (a class or function reference)";
            case Opcodes.STACK_GLOBAL -> "STACK_GLOBAL (a class or function reference)";
            case Opcodes.REDUCE -> "REDUCE (a call)";
            case Opcodes.BUILD -> "BUILD (object state)";
            case Opcodes.INST -> "INST (an object)";
            case Opcodes.OBJ -> "OBJ (an object)";
            case Opcodes.NEWOBJ -> "NEWOBJ (an object)";
            case Opcodes.NEWOBJ_EX -> "NEWOBJ_EX (an object)";
            case Opcodes.EXT1, Opcodes.EXT2, Opcodes.EXT4 -> "EXT (an extension-registry reference)";
            case Opcodes.PERSID, Opcodes.BINPERSID -> "PERSID (a persistent reference)";
            case Opcodes.NEXT_BUFFER, Opcodes.READONLY_BUFFER -> "an out-of-band buffer";
            default -> null;
        };
    }
}
