/**
 * The words the demo content API puts into its answers (market names, match states, promotions,
 * personal offers) in every locale the sites declare. Content is data, not page copy, so it comes
 * with the data in the punter's locale instead of through the translations documents.
 */

export const CONTENT_LOCALES = ['en', 'ru', 'be', 'es', 'pt', 'da', 'it'] as const
export type ContentLocale = (typeof CONTENT_LOCALES)[number]

type Localised = Record<ContentLocale, string>

export const pickLocale = (value: unknown): ContentLocale =>
  typeof value === 'string' && (CONTENT_LOCALES as readonly string[]).includes(value) ? (value as ContentLocale) : 'en'

export const WORDS = {
  matchResult: { en: 'Match result', ru: 'Исход матча', be: 'Вынік матча', es: 'Resultado del partido', pt: 'Resultado da partida', da: 'Kampens resultat', it: 'Esito finale' },
  doubleChance: { en: 'Double chance', ru: 'Двойной шанс', be: 'Двайны шанец', es: 'Doble oportunidad', pt: 'Dupla chance', da: 'Dobbeltchance', it: 'Doppia chance' },
  totalGoals: { en: 'Total goals 2.5', ru: 'Тотал голов 2.5', be: 'Тотал галоў 2.5', es: 'Total de goles 2.5', pt: 'Total de gols 2.5', da: 'Antal mål 2,5', it: 'Totale gol 2,5' },
  bothScore: { en: 'Both teams to score', ru: 'Обе забьют', be: 'Абедзве заб’юць', es: 'Ambos equipos marcan', pt: 'Ambos os times marcam', da: 'Begge hold scorer', it: 'Entrambe le squadre segnano' },
  handicap: { en: 'Handicap (-1.5)', ru: 'Фора (-1.5)', be: 'Фора (-1.5)', es: 'Hándicap (-1.5)', pt: 'Handicap (-1.5)', da: 'Handicap (-1,5)', it: 'Handicap (-1,5)' },
  winner: { en: 'Winner', ru: 'Победитель', be: 'Пераможца', es: 'Ganador', pt: 'Vencedor', da: 'Vinder', it: 'Vincente' },
  totalMaps: { en: 'Total maps 2.5', ru: 'Тотал карт 2.5', be: 'Тотал мапаў 2.5', es: 'Total de mapas 2.5', pt: 'Total de mapas 2.5', da: 'Antal maps 2,5', it: 'Totale mappe 2,5' },
  totalGames: { en: 'Total games 22.5', ru: 'Тотал геймов 22.5', be: 'Тотал геймаў 22.5', es: 'Total de juegos 22.5', pt: 'Total de games 22.5', da: 'Antal partier 22,5', it: 'Totale giochi 22,5' },
  totalPoints: { en: 'Total points 210.5', ru: 'Тотал очков 210.5', be: 'Тотал ачкоў 210.5', es: 'Total de puntos 210.5', pt: 'Total de pontos 210.5', da: 'Antal point 210,5', it: 'Totale punti 210,5' },
  draw: { en: 'Draw', ru: 'Ничья', be: 'Нічыя', es: 'Empate', pt: 'Empate', da: 'Uafgjort', it: 'Pareggio' },
  yes: { en: 'Yes', ru: 'Да', be: 'Так', es: 'Sí', pt: 'Sim', da: 'Ja', it: 'Sì' },
  no: { en: 'No', ru: 'Нет', be: 'Не', es: 'No', pt: 'Não', da: 'Nej', it: 'No' },
  over: { en: 'Over', ru: 'Больше', be: 'Больш', es: 'Más', pt: 'Mais', da: 'Over', it: 'Over' },
  under: { en: 'Under', ru: 'Меньше', be: 'Менш', es: 'Menos', pt: 'Menos', da: 'Under', it: 'Under' },
  live: { en: 'Live', ru: 'Live', be: 'Live', es: 'En directo', pt: 'Ao vivo', da: 'Live', it: 'Live' },
  finished: { en: 'Finished', ru: 'Завершён', be: 'Завершаны', es: 'Finalizado', pt: 'Encerrado', da: 'Slut', it: 'Terminata' },
  events: { en: 'events', ru: 'событий', be: 'падзей', es: 'eventos', pt: 'eventos', da: 'kampe', it: 'eventi' },
  validUntil: { en: 'Until', ru: 'До', be: 'Да', es: 'Hasta', pt: 'Até', da: 'Indtil', it: 'Fino al' },
  // a league table's row: {p} played, {w} won, {d} drawn, {l} lost, {f}:{a} scored and conceded (no plural forms to agree)
  tableRow: {
    en: 'played: {p} · won: {w} · drawn: {d} · lost: {l} · {f}:{a}',
    ru: 'игры: {p} · победы: {w} · ничьи: {d} · поражения: {l} · {f}:{a}',
    be: 'гульні: {p} · перамогі: {w} · нічыі: {d} · паразы: {l} · {f}:{a}',
    es: 'jugados: {p} · ganados: {w} · empates: {d} · perdidos: {l} · {f}:{a}',
    pt: 'jogos: {p} · vitórias: {w} · empates: {d} · derrotas: {l} · {f}:{a}',
    da: 'kampe: {p} · vundne: {w} · uafgjorte: {d} · tabte: {l} · {f}:{a}',
    it: 'giocate: {p} · vinte: {w} · pareggi: {d} · perse: {l} · {f}:{a}',
  },
  points: { en: 'points', ru: 'очки', be: 'ачкі', es: 'puntos', pt: 'pontos', da: 'point', it: 'punti' },
} satisfies Record<string, Localised>

export interface PromotionText {
  id: string
  title: Localised
  body: Localised
  days: number
}

const promo = (id: string, days: number, title: Localised, body: Localised): PromotionText => ({ id, title, body, days })

/** Promotions per product (spec §2 {product}/promotions). */
export const PROMOTIONS: Record<string, PromotionText[]> = {
  sport: [
    promo('sport-welcome', 30,
      { en: 'Welcome bet bonus: 100% up to 100', ru: 'Бонус на первую ставку: 100% до 100', be: 'Бонус на першую стаўку: 100% да 100', es: 'Bono de bienvenida: 100% hasta 100', pt: 'Bônus de boas-vindas: 100% até 100', da: 'Velkomstbonus: 100% op til 100', it: 'Bonus di benvenuto: 100% fino a 100' },
      { en: 'Make your first deposit and we double it for sport bets with odds of 1.80 or more.', ru: 'Сделайте первый депозит, и мы удвоим его для ставок на спорт с коэффициентом от 1.80.', be: 'Зрабіце першы дэпазіт, і мы падвоім яго для ставак на спорт з каэфіцыентам ад 1.80.', es: 'Haz tu primer depósito y lo duplicamos para apuestas deportivas con cuota de 1.80 o más.', pt: 'Faça seu primeiro depósito e nós dobramos o valor para apostas esportivas com odds a partir de 1.80.', da: 'Indbetal første gang, så fordobler vi beløbet til sportsvæddemål med odds på 1,80 eller mere.', it: 'Effettua il primo deposito e lo raddoppiamo per scommesse sportive con quota pari o superiore a 1,80.' }),
    promo('sport-accumulator', 14,
      { en: 'Accumulator boost up to 25%', ru: 'Усиление экспресса до 25%', be: 'Узмацненне экспрэса да 25%', es: 'Combinada mejorada hasta un 25%', pt: 'Múltipla turbinada até 25%', da: 'Kombiboost op til 25%', it: 'Multipla maggiorata fino al 25%' },
      { en: 'Put five or more selections in one accumulator and the winnings grow by up to a quarter.', ru: 'Соберите экспресс из пяти и более событий, и выигрыш вырастет до четверти.', be: 'Збярыце экспрэс з пяці і больш падзей, і выйгрыш вырасце да чвэрці.', es: 'Reúne cinco o más selecciones en una combinada y tus ganancias crecen hasta un 25%.', pt: 'Junte cinco ou mais seleções em uma múltipla e seus ganhos aumentam até 25%.', da: 'Saml fem eller flere valg i én kombination, og gevinsten stiger med op til en fjerdedel.', it: 'Inserisci cinque o più selezioni in una multipla e la vincita cresce fino al 25%.' }),
  ],
  esports: [
    promo('esports-major', 10,
      { en: 'Major week: free bet 10', ru: 'Неделя мейджора: фрибет 10', be: 'Тыдзень мэйджара: фрыбет 10', es: 'Semana del Major: apuesta gratis de 10', pt: 'Semana do Major: aposta grátis de 10', da: 'Major-uge: gratis væddemål på 10', it: 'Settimana del Major: scommessa gratuita da 10' },
      { en: 'Bet 20 on any Counter-Strike 2 Major match and get a free bet of 10 for the playoffs.', ru: 'Поставьте 20 на любой матч мейджора по Counter-Strike 2 и получите фрибет 10 на плей-офф.', be: 'Пастаўце 20 на любы матч мэйджара па Counter-Strike 2 і атрымайце фрыбет 10 на плэй-оф.', es: 'Apuesta 20 en cualquier partido del Major de Counter-Strike 2 y recibe una apuesta gratis de 10 para los playoffs.', pt: 'Aposte 20 em qualquer partida do Major de Counter-Strike 2 e ganhe uma aposta grátis de 10 para os playoffs.', da: 'Spil 20 på en kamp i Counter-Strike 2 Major og få et gratis væddemål på 10 til slutspillet.', it: 'Punta 20 su una partita del Major di Counter-Strike 2 e ricevi una scommessa gratuita da 10 per i playoff.' }),
    promo('esports-insurance', 21,
      { en: 'Map insurance', ru: 'Страховка карты', be: 'Страхоўка мапы', es: 'Seguro de mapa', pt: 'Seguro de mapa', da: 'Map-forsikring', it: 'Assicurazione mappa' },
      { en: 'Lose a map-winner bet by two rounds or less and get the stake back as a bonus.', ru: 'Если ставка на победителя карты проиграла с разницей в два раунда или меньше, сумма вернётся бонусом.', be: 'Калі стаўка на пераможцу мапы прайграла з розніцай у два раўнды ці менш, сума вернецца бонусам.', es: 'Si pierdes una apuesta al ganador del mapa por dos rondas o menos, te devolvemos la apuesta como bono.', pt: 'Se você perder uma aposta no vencedor do mapa por dois rounds ou menos, devolvemos o valor como bônus.', da: 'Taber du et væddemål på map-vinderen med to runder eller mindre, får du indsatsen tilbage som bonus.', it: 'Se perdi una scommessa sul vincitore della mappa per due round o meno, ti restituiamo la puntata come bonus.' }),
  ],
  casino: [
    promo('casino-spins', 7,
      { en: '50 free spins on Starburst Deluxe', ru: '50 фриспинов в Starburst Deluxe', be: '50 фрыспінаў у Starburst Deluxe', es: '50 giros gratis en Starburst Deluxe', pt: '50 rodadas grátis em Starburst Deluxe', da: '50 gratisspins på Starburst Deluxe', it: '50 giri gratis su Starburst Deluxe' },
      { en: 'Deposit 20 or more this week and the spins are yours; winnings are paid in real money.', ru: 'Пополните счёт на 20 или больше на этой неделе, и спины ваши; выигрыш выплачивается реальными деньгами.', be: 'Папоўніце рахунак на 20 ці больш на гэтым тыдні, і спіны вашы; выйгрыш выплачваецца рэальнымі грашыма.', es: 'Deposita 20 o más esta semana y los giros son tuyos; las ganancias se pagan en dinero real.', pt: 'Deposite 20 ou mais nesta semana e as rodadas são suas; os ganhos são pagos em dinheiro real.', da: 'Indbetal 20 eller mere i denne uge, så er dine spins klar; gevinster udbetales i rigtige penge.', it: 'Deposita 20 o più questa settimana e i giri sono tuoi; le vincite sono pagate in denaro reale.' }),
    promo('casino-cashback', 30,
      { en: 'Weekly cashback 10%', ru: 'Еженедельный кешбэк 10%', be: 'Штотыднёвы кэшбэк 10%', es: 'Cashback semanal del 10%', pt: 'Cashback semanal de 10%', da: 'Ugentlig cashback på 10%', it: 'Cashback settimanale del 10%' },
      { en: 'Every Monday we return a tenth of last week’s net casino losses, with no wagering.', ru: 'Каждый понедельник мы возвращаем десятую часть чистого проигрыша в казино за прошлую неделю без отыгрыша.', be: 'Кожны панядзелак мы вяртаем дзясятую частку чыстага пройгрышу ў казіно за мінулы тыдзень без адыгрышу.', es: 'Cada lunes te devolvemos el 10% de tus pérdidas netas de casino de la semana anterior, sin requisitos de apuesta.', pt: 'Toda segunda-feira devolvemos 10% das perdas líquidas no cassino da semana anterior, sem exigência de rollover.', da: 'Hver mandag får du en tiendedel af sidste uges nettotab i casinoet tilbage, uden omsætningskrav.', it: 'Ogni lunedì restituiamo il 10% delle perdite nette al casinò della settimana precedente, senza requisiti di puntata.' }),
  ],
  'live-casino': [
    promo('live-casino-roulette', 14,
      { en: 'Lightning Roulette prize drops', ru: 'Призовые розыгрыши в Lightning Roulette', be: 'Прызавыя розыгрышы ў Lightning Roulette', es: 'Premios sorpresa en Lightning Roulette', pt: 'Prêmios surpresa na Lightning Roulette', da: 'Præmieregn i Lightning Roulette', it: 'Premi a sorpresa su Lightning Roulette' },
      { en: 'Every hour a random round at the live table pays an extra cash prize to everyone who bet.', ru: 'Каждый час в случайном раунде за живым столом все, кто сделал ставку, получают дополнительный денежный приз.', be: 'Кожную гадзіну ў выпадковым раўндзе за жывым сталом усе, хто зрабіў стаўку, атрымліваюць дадатковы грашовы прыз.', es: 'Cada hora, una ronda al azar de la mesa en vivo paga un premio extra a todos los que apostaron.', pt: 'A cada hora, uma rodada aleatória da mesa ao vivo paga um prêmio extra para todo mundo que apostou.', da: 'Hver time udbetaler en tilfældig runde ved livebordet en ekstra kontantpræmie til alle, der spillede.', it: 'Ogni ora un giro a caso al tavolo live paga un premio extra a tutti quelli che hanno puntato.' }),
    promo('live-casino-blackjack', 30,
      { en: 'Blackjack VIP: lucky hand', ru: 'Blackjack VIP: счастливая рука', be: 'Blackjack VIP: шчаслівая рука', es: 'Blackjack VIP: mano de la suerte', pt: 'Blackjack VIP: mão da sorte', da: 'Blackjack VIP: heldig hånd', it: 'Blackjack VIP: mano fortunata' },
      { en: 'Get three sevens of the same suit and win a bonus of 200 on top of your hand.', ru: 'Соберите три семёрки одной масти и получите бонус 200 сверх выигрыша руки.', be: 'Збярыце тры сямёркі адной масці і атрымайце бонус 200 звыш выйгрышу рукі.', es: 'Consigue tres sietes del mismo palo y gana un bono de 200 además de tu mano.', pt: 'Consiga três setes do mesmo naipe e ganhe um bônus de 200 além do prêmio da sua mão.', da: 'Få tre syvere i samme kulør og vind en bonus på 200 oven i din hånd.', it: 'Ottieni tre sette dello stesso seme e vinci un bonus di 200 oltre alla tua mano.' }),
  ],
  'live-games': [
    promo('live-games-keno', 7,
      { en: 'Keno Live: double Tuesday', ru: 'Keno Live: двойной вторник', be: 'Keno Live: падвойны аўторак', es: 'Keno Live: martes doble', pt: 'Keno Live: terça-feira em dobro', da: 'Keno Live: dobbelt tirsdag', it: 'Keno Live: martedì doppio' },
      { en: 'On Tuesdays every win with eight or more numbers pays double.', ru: 'По вторникам каждый выигрыш с восемью и более номерами выплачивается вдвойне.', be: 'Па аўторках кожны выйгрыш з васьмю і больш нумарамі выплачваецца ўдвая.', es: 'Los martes, cada premio con ocho o más números se paga doble.', pt: 'Às terças-feiras, todo prêmio com oito ou mais números paga em dobro.', da: 'Om tirsdagen udbetales hver gevinst med otte eller flere tal dobbelt.', it: 'Il martedì ogni vincita con otto o più numeri paga il doppio.' }),
    promo('live-games-wheel', 21,
      { en: 'Wheel of Fortune streak', ru: 'Серия в «Колесе фортуны»', be: 'Серыя ў «Коле фартуны»', es: 'Racha en la Rueda de la Fortuna', pt: 'Sequência na Roda da Fortuna', da: 'Lykkehjulsstime', it: 'Serie sulla Ruota della Fortuna' },
      { en: 'Win three rounds in a row and the fourth bet is on us, up to 25.', ru: 'Выиграйте три раунда подряд, и четвёртая ставка за наш счёт, до 25.', be: 'Выйграйце тры раўнды запар, і чацвёртая стаўка за наш кошт, да 25.', es: 'Gana tres rondas seguidas y la cuarta apuesta corre de nuestra cuenta, hasta 25.', pt: 'Ganhe três rodadas seguidas e a quarta aposta fica por nossa conta, até 25.', da: 'Vind tre runder i træk, så giver vi fjerde indsats, op til 25.', it: 'Vinci tre giri di fila e la quarta puntata la offriamo noi, fino a 25.' }),
  ],
  'virtual-sports': [
    promo('virtual-derby', 14,
      { en: 'Virtual Derby: each-way boost', ru: 'Виртуальное дерби: усиленная ставка each-way', be: 'Віртуальнае дэрбі: узмоцненая стаўка each-way', es: 'Derby virtual: apuesta a colocado mejorada', pt: 'Derby virtual: aposta each-way turbinada', da: 'Virtuelt derby: each-way boost', it: 'Derby virtuale: each-way maggiorato' },
      { en: 'Places in every virtual horse race pay a quarter of the odds instead of a fifth.', ru: 'Места в каждом виртуальном забеге оплачиваются по четверти коэффициента вместо пятой части.', be: 'Месцы ў кожным віртуальным забегу аплачваюцца па чвэрці каэфіцыента замест пятай часткі.', es: 'Las colocaciones en cada carrera virtual pagan un cuarto de la cuota en lugar de un quinto.', pt: 'As colocações em cada corrida virtual pagam um quarto da odd em vez de um quinto.', da: 'Placeringer i hvert virtuelt løb udbetaler en fjerdedel af oddsene i stedet for en femtedel.', it: 'I piazzamenti in ogni corsa virtuale pagano un quarto della quota invece di un quinto.' }),
    promo('virtual-cup', 30,
      { en: 'Virtual Cup predictor', ru: 'Прогнозист Виртуального кубка', be: 'Прагназіст Віртуальнага кубка', es: 'Pronosticador de la Copa Virtual', pt: 'Palpites da Copa Virtual', da: 'Virtual Cup-tipskonkurrence', it: 'Pronostici della Coppa Virtuale' },
      { en: 'Call the correct score of three virtual football matches in a day and share a pool of 1,000.', ru: 'Угадайте точный счёт трёх виртуальных футбольных матчей за день и разделите фонд 1 000.', be: 'Угадайце дакладны лік трох віртуальных футбольных матчаў за дзень і падзяліце фонд 1 000.', es: 'Acierta el resultado exacto de tres partidos de fútbol virtual en un día y reparte un bote de 1.000.', pt: 'Acerte o placar exato de três jogos de futebol virtual em um dia e divida um prêmio de 1.000.', da: 'Gæt det korrekte resultat af tre virtuelle fodboldkampe på én dag og del en pulje på 1.000.', it: 'Indovina il risultato esatto di tre partite di calcio virtuale in un giorno e dividi un montepremi di 1.000.' }),
  ],
  toto: [
    promo('toto-jackpot', 7,
      { en: 'Toto 15 jackpot: 250,000', ru: 'Джекпот Тото 15: 250 000', be: 'Джэкпот Тота 15: 250 000', es: 'Bote del Toto 15: 250.000', pt: 'Jackpot do Toto 15: 250.000', da: 'Toto 15-jackpot: 250.000', it: 'Jackpot Toto 15: 250.000' },
      { en: 'Guess all fifteen results of this round’s coupon and the jackpot is yours.', ru: 'Угадайте все пятнадцать исходов купона этого тура, и джекпот ваш.', be: 'Угадайце ўсе пятнаццаць вынікаў купона гэтага тура, і джэкпот ваш.', es: 'Acierta los quince resultados del boleto de esta jornada y el bote es tuyo.', pt: 'Acerte os quinze resultados do bilhete desta rodada e o jackpot é seu.', da: 'Gæt alle femten resultater på denne rundes kupon, så er jackpotten din.', it: 'Indovina tutti i quindici risultati della schedina di questo turno e il jackpot è tuo.' }),
    promo('toto-second-chance', 14,
      { en: 'Second chance on 12 of 15', ru: 'Второй шанс за 12 из 15', be: 'Другі шанец за 12 з 15', es: 'Segunda oportunidad con 12 de 15', pt: 'Segunda chance com 12 de 15', da: 'Ny chance ved 12 af 15', it: 'Seconda possibilità con 12 su 15' },
      { en: 'Twelve right answers return your coupon price as a free coupon for the next round.', ru: 'Двенадцать верных исходов возвращают стоимость купона бесплатным купоном на следующий тур.', be: 'Дванаццаць правільных вынікаў вяртаюць кошт купона бясплатным купонам на наступны тур.', es: 'Doce aciertos te devuelven el precio del boleto como boleto gratis para la siguiente jornada.', pt: 'Doze acertos devolvem o valor do bilhete como um bilhete grátis para a próxima rodada.', da: 'Tolv rigtige giver dig kuponens pris tilbage som en gratis kupon til næste runde.', it: 'Dodici risultati esatti ti restituiscono il prezzo della schedina come schedina gratuita per il turno successivo.' }),
  ],
}

/** Personal offers of /account/offers (a logged-in page). */
export const OFFERS: PromotionText[] = [
  promo('offer-reload', 3,
    { en: 'Reload bonus 50% up to 50', ru: 'Бонус на пополнение 50% до 50', be: 'Бонус на папаўненне 50% да 50', es: 'Bono de recarga del 50% hasta 50', pt: 'Bônus de recarga de 50% até 50', da: 'Genindbetalingsbonus 50% op til 50', it: 'Bonus ricarica 50% fino a 50' },
    { en: 'Just for you: top up within three days and get half of the deposit as a sport bonus.', ru: 'Только для вас: пополните счёт в течение трёх дней и получите половину депозита бонусом на спорт.', be: 'Толькі для вас: папоўніце рахунак на працягу трох дзён і атрымайце палову дэпазіту бонусам на спорт.', es: 'Solo para ti: recarga en los próximos tres días y recibe la mitad del depósito como bono deportivo.', pt: 'Só para você: recarregue sua conta nos próximos três dias e receba metade do depósito como bônus de esportes.', da: 'Kun til dig: indbetal inden for tre dage og få halvdelen af indbetalingen som sportsbonus.', it: 'Solo per te: ricarica entro tre giorni e ricevi metà del deposito come bonus sport.' }),
  promo('offer-free-spins', 5,
    { en: '20 free spins on Gates of Olympus', ru: '20 фриспинов в Gates of Olympus', be: '20 фрыспінаў у Gates of Olympus', es: '20 giros gratis en Gates of Olympus', pt: '20 rodadas grátis em Gates of Olympus', da: '20 gratisspins på Gates of Olympus', it: '20 giri gratis su Gates of Olympus' },
    { en: 'Your spins are waiting in the casino lobby; they expire after five days.', ru: 'Ваши спины ждут в лобби казино; они сгорают через пять дней.', be: 'Вашы спіны чакаюць у лобі казіно; яны згараюць праз пяць дзён.', es: 'Tus giros te esperan en el lobby del casino; caducan a los cinco días.', pt: 'Suas rodadas estão esperando no lobby do cassino; elas expiram em cinco dias.', da: 'Dine spins venter i casinolobbyen; de udløber efter fem dage.', it: 'I tuoi giri ti aspettano nella lobby del casinò; scadono dopo cinque giorni.' }),
  promo('offer-free-bet', 7,
    { en: 'Free bet 5 on the weekend derby', ru: 'Фрибет 5 на дерби выходных', be: 'Фрыбет 5 на дэрбі выхадных', es: 'Apuesta gratis de 5 para el derbi del fin de semana', pt: 'Aposta grátis de 5 no clássico do fim de semana', da: 'Gratis væddemål på 5 til weekendens derby', it: 'Scommessa gratuita da 5 sul derby del weekend' },
    { en: 'A free bet for any market of the weekend’s big derby, minimum odds 1.50.', ru: 'Фрибет на любой рынок большого дерби выходных, минимальный коэффициент 1.50.', be: 'Фрыбет на любы рынак вялікага дэрбі выхадных, мінімальны каэфіцыент 1.50.', es: 'Una apuesta gratis para cualquier mercado del gran derbi del fin de semana, cuota mínima 1.50.', pt: 'Uma aposta grátis em qualquer mercado do grande clássico do fim de semana, odd mínima 1.50.', da: 'Et gratis væddemål på ethvert marked i weekendens store derby, minimumsodds 1,50.', it: 'Una scommessa gratuita su qualsiasi mercato del grande derby del weekend, quota minima 1,50.' }),
]
