import duckdb, pandas as pd, numpy as np, kappaframe as kf, warnings
from kappaframe._frames import arrow_batches as ab
warnings.simplefilter("ignore")
con=duckdb.connect()
con.execute("CREATE TYPE mood AS ENUM ('sad','ok','happy')")
rng=np.random.default_rng(0)
n=50
df=pd.DataFrame({'a':rng.choice(['sad','ok','happy',None],n),'b':rng.choice(['sad','ok','happy'],n),'g':rng.choice([1,2,None],n)})
rel=con.sql("select a::mood a, b::mood b, g::INTEGER g from df")
def run(f):
    try: return f()
    except Exception as x: return f"{type(x).__name__}: {x}"
def both(f):
    s=run(f)
    saved=ab.IN_PROCESS; ab.IN_PROCESS=()
    try: p=run(f)
    finally: ab.IN_PROCESS=saved
    print("STREAM\n", s); print("PUSH\n", p)
both(lambda: kf.pairwise(rel, by='g', weights='linear'))
both(lambda: kf.pairwise(rel, by='g'))
both(lambda: kf.confusion(rel,'a','b'))
e=con.sql("select a::mood a, b::mood b, g::INTEGER g from df where false")
both(lambda: kf.pairwise(e, by='g'))
print(rel.limit(0).to_arrow_table().to_pandas().dtypes)
