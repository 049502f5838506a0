/**
 * Which sockets a punter event goes to (server/realtime/punter-channel.ts, punterEventTargets): an
 * event naming a punter to that punter's sockets only; one without a punter to every authenticated
 * socket, or, naming a jurisdiction, to those of that site only; never to an events-only socket nor
 * to a guest's.
 */
import { describe, expect, it } from 'vitest'
import type { WebSocket } from 'ws'
import { newConnection, type Connection, type SocketRole } from '../../../server/realtime/connection'
import { createFollowers, indexed } from '../../../server/realtime/followers'
import { punterEventTargets } from '../../../server/realtime/punter-channel'

function socketOf(followers: ReturnType<typeof createFollowers>, id: number, role: SocketRole, jurisdiction: string, punterId?: number): Connection {
  const connection = newConnection(id, {} as WebSocket, role, 'web', 0)
  connection.jurisdiction = jurisdiction
  if (punterId !== undefined) {
    connection.punter = { punterId, sessionId: `s${id}` }
    indexed(followers.byPunter, punterId, connection, true)
  }
  followers.all.add(connection)
  return connection
}

function world() {
  const followers = createFollowers()
  return {
    followers,
    aliceCombined: socketOf(followers, 1, 'combined', 'curacao', 7),
    alicePunter: socketOf(followers, 2, 'punter', 'curacao', 7),
    aliceEvents: socketOf(followers, 3, 'events', 'curacao', 7),
    bobSpain: socketOf(followers, 4, 'combined', 'spain', 8),
    guest: socketOf(followers, 5, 'combined', 'curacao'),
  }
}

const ids = (connections: Connection[]) => connections.map((c) => c.id).sort()

describe('punter event targets', () => {
  it("an event naming a punter goes to that punter's sockets, never an events-only one", () => {
    const { followers } = world()
    expect(ids(punterEventTargets(followers, { punterId: 7, balance: 10 }))).toEqual([1, 2])
    expect(ids(punterEventTargets(followers, { punterId: 8 }))).toEqual([4])
    expect(punterEventTargets(followers, { punterId: 99 })).toEqual([])
  })

  it('a site-wide event goes to every punter socket, not to guests nor events-only sockets', () => {
    const { followers } = world()
    expect(ids(punterEventTargets(followers, { reason: 'maintenance' }))).toEqual([1, 2, 4])
  })

  it('a site-wide event naming a jurisdiction goes only to the punter sockets of that site', () => {
    const { followers } = world()
    expect(ids(punterEventTargets(followers, { jurisdiction: 'spain', mirrorName: 'm2' }))).toEqual([4])
    expect(ids(punterEventTargets(followers, { jurisdiction: 'curacao', mirrorName: 'm2' }))).toEqual([1, 2])
  })

  it('a closed socket is forgotten and hears nothing', () => {
    const { followers, alicePunter } = world()
    followers.forget(alicePunter)
    expect(ids(punterEventTargets(followers, { punterId: 7 }))).toEqual([1])
  })
})
