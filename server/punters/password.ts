/**
 * Password hashing: argon2id with the OWASP Password Storage Cheat Sheet's first setting
 * (m = 19 MiB, t = 2, p = 1). Every login runs exactly one verify, against a dummy hash when the
 * login is unknown, so an unknown login, a wrong password and a locked login take the same path.
 *
 * The hasher is a seam: each database (so each server) can be given its own, which is how the
 * tests count verifications instead of timing them.
 */
import argon2 from 'argon2'
import type { Db } from '../db/database'

export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS)
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password)
  } catch {
    return false
  }
}

let dummy: Promise<string> | undefined
/** A hash of a random secret with the same parameters: verified when no punter matches. */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(crypto.randomUUID())
  return dummy
}

export interface PasswordHasher {
  verify(hash: string, password: string): Promise<boolean>
  dummyHash(): Promise<string>
}

export const ARGON2_HASHER: PasswordHasher = { verify: verifyPassword, dummyHash }

const hashers = new WeakMap<Db, PasswordHasher>()

/** Gives one server (its database) its own hasher, e.g. a counting one in a test. */
export function usePasswordHasher(db: Db, hasher: PasswordHasher): () => void {
  hashers.set(db, hasher)
  return () => hashers.delete(db)
}

export function passwordHasherFor(db: Db): PasswordHasher {
  return hashers.get(db) ?? ARGON2_HASHER
}
