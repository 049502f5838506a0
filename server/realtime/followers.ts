/**
 * Who follows what on the socket server (spec §7 "Real-time"): the open connections indexed by the
 * events they follow, the selections their bet channel watches, their punter and the gambling
 * channel, so a feed change or a punter event reaches its sockets without a scan of them all.
 */
import { followedEvents, type Connection } from './connection'

export interface Followers {
  all: Set<Connection>
  gambling: Set<Connection>
  byEvent: Map<string, Set<Connection>>
  bySelection: Map<string, Set<Connection>>
  byPunter: Map<number, Set<Connection>>
  /** A closed connection leaves every index. */
  forget(connection: Connection): void
}

/** Adds (on) or removes a connection under a key; an empty set leaves the map. */
export function indexed<K>(map: Map<K, Set<Connection>>, key: K, connection: Connection, on: boolean): void {
  let set = map.get(key)
  if (on) {
    if (!set) map.set(key, (set = new Set()))
    set.add(connection)
  } else if (set) {
    set.delete(connection)
    if (set.size === 0) map.delete(key)
  }
}

export function createFollowers(): Followers {
  const followers: Omit<Followers, 'forget'> = { all: new Set(), gambling: new Set(), byEvent: new Map(), bySelection: new Map(), byPunter: new Map() }
  return {
    ...followers,
    forget(connection) {
      followers.all.delete(connection)
      followers.gambling.delete(connection)
      for (const id of followedEvents(connection)) indexed(followers.byEvent, id, connection, false)
      for (const set of Object.values(connection.betChannel)) for (const id of set) indexed(followers.bySelection, id, connection, false)
      if (connection.punter) indexed(followers.byPunter, connection.punter.punterId, connection, false)
    },
  }
}
